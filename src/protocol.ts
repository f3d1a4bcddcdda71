/**
 * The typed protocol between the extension host and the index server (one module, used by both sides): what the host
 * sends at start (ServerSettings, as initializationOptions), the requests the host sends, and the notifications the
 * server sends, each with named params and results. Methods are namespaced `sessions/…`.
 */
import type { DecisionsResponse } from './core/answer/decision-list.js';
import type { FileHistoryQuery, FileHistoryResponse } from './core/answer/file-history.js';
import type { ExportFormat } from './core/model.js';
import type { EmbedConfig } from './core/embed/config.js';
import type { MeaningState } from './core/embed/leg.js';
import { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import type {
  FailedWorkspace,
  GetResponse,
  PreferencesResponse,
  ReadResponse,
  SearchOptions,
  SearchResponse,
  TagResponse,
  TurnWindow,
  WorkspaceGroup,
  WorkspaceSummary,
} from './core/contracts.js';
import type { SourceRoot, SourceSetting } from './core/ingest/sources/default-roots.js';
import type { PushResult } from './core/team/push.js';
import type { ArchiveSize, TreeSession } from './core/contracts.js';

export type { ArchiveSize, TreeSession } from './core/contracts.js';

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
  /** The user's own embedding model (sessionSearch.semantic.*, user settings only). */
  embed?: EmbedConfig;
  /** The team archive (sessionSearch.team.*, user settings only): searched with scope "team", pushed to on request. */
  team?: { url: string; machine?: string; projects: string[] };
  /**
   * Set when the extension host found that the data folder's engine cannot serve this window (and why): the index
   * server then answers from a library of its own without trying the engine again.
   */
  ownProcess?: string;
}

export interface SearchParams extends SearchOptions {
  query: string;
  /** team: the team archive too (when one is configured). */
  scope?: 'local' | 'team';
}

export interface IndexProgress {
  /**
   * cancelled: indexing was stopped; what was read is searchable and the rest is read on the next start. stopped: it
   * stopped by itself before the end (memory ran short), `reason` says why and what to do.
   */
  state: 'indexing' | 'ready' | 'cancelled' | 'stopped';
  reason?: string;
  /** Once ready: sessions with lines that could not be read (the log says which and why). */
  unread?: number;
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
  sessions: number;
  /** The data folder cannot be written (read-only, full, unwritable): what happened and what to do. */
  storage?: { detail: string; advice: string };
}

/** Params and results of the requests, named once. */
export interface TreeParams {
  limit?: number;
  /** team: the team archive's newest sessions too (those shared with you). */
  scope?: 'local' | 'team';
}
export interface GetParams {
  name: string;
  format?: 'json' | 'toon' | 'auto';
}
export interface ReadParams {
  docid: string;
  offset?: number;
}
export interface TurnsParams {
  id: string;
  from: number;
  to: number;
  /** Matches of this query are marked in the turns returned. */
  query?: string;
}
export interface ChangedParams {
  files: string[];
}

// ─── host → server: requests ────────────────────────────────────────────────────────────────────────────────────

/** Ranked search (the seed's search_session answer). */
export const SearchRequest = new RequestType<SearchParams, SearchResponse, void>('sessions/search');
/**
 * The workspace view, streamed: each workspace's group (or why it failed) comes as a WorkspaceAnsweredNotification with
 * the same `searchId` as soon as it is done; the answer is the summary. A newer request stops an older one.
 */
export interface SearchWorkspacesParams extends SearchParams {
  searchId: number;
}
export const SearchWorkspacesRequest = new RequestType<SearchWorkspacesParams, WorkspaceSummary & { searchId: number }, void>('sessions/searchWorkspaces');
/** Every session for the tree, newest first. */
export const TreeRequest = new RequestType<TreeParams, TreeSession[], void>('sessions/tree');
/** One session (the seed's get_session answer), for the language-model tool. */
export const GetRequest = new RequestType<GetParams, GetResponse, void>('sessions/get');
/** Paged read of a session or turn by docid. */
export const ReadRequest = new RequestType<ReadParams, ReadResponse, void>('sessions/read');
/** Turns `from`..`to` of a session, for the reader's window around a hit, with what matches `query` marked. */
export const TurnsRequest = new RequestType<TurnsParams, TurnWindow | null, void>('sessions/turns');
/** An export (file or folder) to import: recorded in the data folder and read from then on (core/ingest/imports.ts). */
export interface ImportParams {
  path: string;
}
export interface ImportResult {
  added: SourceRoot[];
  known: SourceRoot[];
  /** Sessions read from the added exports. */
  sessions: number;
}
export const ImportRequest = new RequestType<ImportParams, ImportResult, void>('sessions/import');
/** Read every root again from scratch. */
export const RebuildRequest = new RequestType0<void, void>('sessions/rebuild');
/** Stop indexing; what was read so far stays searchable. Answers whether indexing was under way. */
export const CancelIndexingRequest = new RequestType0<boolean, void>('sessions/cancelIndexing');
/** How big the archive is. */
export const ArchiveSizeRequest = new RequestType0<ArchiveSize, void>('sessions/archiveSize');
/** How far the user's own embedding model is (null: none configured), for the status bar. */
export const EmbeddingsRequest = new RequestType0<MeaningState | null, void>('sessions/embeddings');
/** Delete the archive (sessions whose transcript is gone leave the index). */
/** One session exported (Markdown, HTML or JSON), for Export Session…. */
export interface ExportParams {
  id: string;
  format: ExportFormat;
  redactHome?: boolean;
}
export const ExportRequest = new RequestType<ExportParams, { id: string; text: string }, void>('sessions/export');
export const PurgeArchiveRequest = new RequestType0<ArchiveSize, void>('sessions/purgeArchive');
/** Tags a person gives a session (Add Tag…) or takes away (Remove Tag…). */
export interface TagParams {
  id: string;
  tags: string[];
}
export const TagRequest = new RequestType<TagParams, TagResponse, void>('sessions/tag');
export const UntagRequest = new RequestType<TagParams, TagResponse, void>('sessions/untag');
/** What the sessions show about how the person likes to work (the MCP tool get_preferences), or one project's. */
export const PreferencesRequest = new RequestType<{ project?: string }, PreferencesResponse, void>('sessions/preferences');
/** Preferences set by hand (update_preferences): a value sets, null clears. */
export const UpdatePreferencesRequest = new RequestType<{ preferences: Record<string, string | null> }, PreferencesResponse, void>(
  'sessions/updatePreferences',
);

/** Session titles starting with (or holding) the words typed: Go to Symbol in Workspace. */
export interface TitlesParams {
  query: string;
  limit: number;
}
export interface TitleMatch {
  id: string;
  topic: string;
  source: string;
  created: string;
}
/** The sessions that touched a file; with `lines`, which one wrote them (the editor sends its text when unsaved). */
export const FileHistoryRequest = new RequestType<FileHistoryQuery, FileHistoryResponse, void>('sessions/fileHistory');

/** What each project's sessions settled, newest first (the panel's Decisions). */
export const DecisionsRequest = new RequestType<{ project?: string }, DecisionsResponse, void>('sessions/decisions');

export const TitlesRequest = new RequestType<TitlesParams, TitleMatch[], void>('sessions/titles');

/** Pushes this machine's sessions of sessionSearch.team.projects to the team archive (team push). */
export const TeamPushRequest = new RequestType0<PushResult, void>('sessions/teamPush');

// ─── server → host: notifications ───────────────────────────────────────────────────────────────────────────────

/** Indexing progress for the status bar. */
export const IndexProgressNotification = new NotificationType<IndexProgress>('sessions/indexProgress');
/** One workspace of a SearchWorkspacesRequest has answered. */
export interface WorkspaceAnsweredParams {
  searchId: number;
  group?: WorkspaceGroup;
  failed?: FailedWorkspace;
}
export const WorkspaceAnsweredNotification = new NotificationType<WorkspaceAnsweredParams>('sessions/workspaceAnswered');
/** Sessions changed (tree refresh). */
export const ChangedNotification = new NotificationType<ChangedParams>('sessions/changed');
