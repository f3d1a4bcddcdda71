/**
 * The typed protocol between the extension host and the index server (one module, used by both sides). Methods are
 * namespaced `sessions/…`; each says who sends it.
 */
import { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import type { GetResponse, ListResponse, ReadResponse, SearchOptions, SearchResponse, SessionInfo, TurnWindow } from './core/contracts.js';
import type { SourceSetting } from './core/sources/registry.js';

/** Sent by the host as initializationOptions: what to read and where the data folder is. */
export interface ServerSettings {
  /** Per source: whether to read it and the folders to read besides its defaults. */
  sources: SourceSetting[];
  /** Open workspace folders: the default roots of workspace-scoped sources (SpecStory, Aider). */
  workspaceFolders: string[];
  dataDir: string;
  archive: boolean;
  /** Answer workspace/symbol with session titles (Go to Symbol in Workspace). */
  workspaceSymbols: boolean;
  /** Glob patterns of transcript files never to read. */
  exclude: string[];
  maxFileBytes: number;
}

export interface SearchParams extends SearchOptions {
  query: string;
}

/** A session as the tree shows it: list metadata plus what the tooltip needs. */
export interface TreeSession extends SessionInfo {
  branch?: string;
  firstPrompt?: string;
  updated: string;
  nativeId: string;
}

export interface IndexProgress {
  /** cancelled: indexing was stopped; what was read is searchable and the rest is read on the next start. */
  state: 'indexing' | 'ready' | 'cancelled';
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
  sessions: number;
}

export interface ArchiveSize {
  enabled: boolean;
  dir: string;
  bytes: number;
  entries: number;
  /** The index snapshot beside it. */
  snapshotBytes: number;
}

/** host → server: ranked search (the seed's search_session answer). */
export const SearchRequest = new RequestType<SearchParams, SearchResponse, void>('sessions/search');
/** host → server: every session for the tree, newest first. */
export const TreeRequest = new RequestType<{ limit?: number }, TreeSession[], void>('sessions/tree');
/** host → server: list in the seed's get_session shape. */
export const ListRequest = new RequestType<{ date?: string; limit?: number; source?: string; project?: string }, ListResponse, void>('sessions/list');
/** host → server: one session (the seed's get_session answer). */
export const GetRequest = new RequestType<{ name: string; format?: 'json' | 'toon' | 'auto' }, GetResponse, void>('sessions/get');
/** host → server: paged read of a session or turn by docid. */
export const ReadRequest = new RequestType<{ docid: string; offset?: number }, ReadResponse, void>('sessions/read');
/** host → server: turns `from`..`to` of a session, for the reader's window around a hit, with what matches `query` marked. */
export const TurnsRequest = new RequestType<{ id: string; from: number; to: number; query?: string }, TurnWindow | null, void>('sessions/turns');
/** host → server: read every root again from scratch. */
export const RebuildRequest = new RequestType0<void, void>('sessions/rebuild');
/** host → server: stop indexing; what was read so far stays searchable. */
export const CancelIndexingRequest = new RequestType0<boolean, void>('sessions/cancelIndexing');
/** host → server: how big the archive is. */
export const ArchiveSizeRequest = new RequestType0<ArchiveSize, void>('sessions/archiveSize');
/** host → server: delete the archive (sessions whose transcript is gone leave the index). */
export const PurgeArchiveRequest = new RequestType0<ArchiveSize, void>('sessions/purgeArchive');
/** server → host: indexing progress for the status bar. */
export const IndexProgressNotification = new NotificationType<IndexProgress>('sessions/indexProgress');
/** server → host: sessions changed (tree refresh). */
export const ChangedNotification = new NotificationType<{ files: string[] }>('sessions/changed');
