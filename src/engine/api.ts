/**
 * The questions every front end asks (the CLI, the MCP server, the engine's clients), as one narrow facade of async
 * methods: answered in process over a SessionLibrary (`inProcess`), or by the resident engine over its socket
 * (client.ts). The team overlay is the library's: a team archive named is searched beside the local one.
 */
import type {
  ContextResponse,
  GetResponse,
  ListResponse,
  SessionInfo,
  PreferencesResponse,
  ReadResponse,
  SearchOptions,
  SearchResponse,
  TagResponse,
} from '../core/contracts.js';
import type { ExportOptions } from '../core/export.js';
import type { SourceRoot } from '../core/ingest/sources/registry.js';
import type { SourceReport } from '../core/library/sources-report.js';
import type { ExportFormat } from '../core/model.js';
import type { FileHistoryQuery, FileHistoryResponse } from '../core/answer/file-history.js';
import type { OutputFormat } from '../core/format.js';
import type { ContextOptions, LibraryStatus, SessionLibrary } from '../core/library.js';
import type { StoreInput } from '../core/library/store-conversation.js';
import type { TeamRef } from '../core/team/id.js';

export type ListOptions = Parameters<SessionLibrary['list']>[0];
export type { ContextOptions } from '../core/library.js';
export type StoreResult = Awaited<ReturnType<SessionLibrary['store']>>;

/** What a client learns of where its answers come from. */
export type EngineWhere = { kind: 'engine'; pid: number; version: string } | { kind: 'in-process'; reason: string };

export type EngineStatus = LibraryStatus;

export interface Engine {
  readonly where: EngineWhere;
  /** search_session: with `groupBy`, the workspaces too; with a team archive, its sessions beside the local ones. */
  search(query: string, options: SearchOptions): Promise<SearchResponse>;
  searchContext(query: string, options: ContextOptions): Promise<ContextResponse>;
  get(name: string, format?: OutputFormat): Promise<GetResponse>;
  list(options: ListOptions): Promise<ListResponse>;
  /** What a listing says of one session, found by any of its names, without its turns. */
  info(name: string): Promise<SessionInfo>;
  /** Every source, the `roots` given and the imported exports it is read from, with how many sessions each gave. */
  sources(roots: SourceRoot[]): Promise<SourceReport[]>;
  /** A session exported as Markdown, HTML or JSON. */
  export(name: string, format: ExportFormat, options: ExportOptions): Promise<{ id: string; text: string }>;
  /** file_history: the sessions that touched a file; with `lines`, which one wrote them. */
  fileHistory(query: FileHistoryQuery): Promise<FileHistoryResponse>;
  read(docid: string, offset: number): Promise<ReadResponse>;
  store(input: StoreInput, now?: string): Promise<StoreResult>;
  tag(id: string, tags: string[]): Promise<TagResponse>;
  untag(id: string, tags: string[]): Promise<TagResponse>;
  /** The tags people gave, with how many sessions carry each, most used first. */
  userTags(): Promise<{ tag: string; sessions: number }[]>;
  preferences(project?: string): Promise<PreferencesResponse>;
  updatePreferences(changes: Record<string, unknown>): Promise<PreferencesResponse & { updated: true }>;
  /** How far the load is, and how many sessions are searchable: answered at once, even while a snapshot is restored. */
  status(): Promise<EngineStatus>;
  /** Lets go of the engine (a client) or closes the library (in process: snapshot written, writer lock released). */
  close(): Promise<void>;
}

/**
 * The facade over a library in this process; `close` is the owner's to give (the engine's clients must not close it).
 * `team`: the team archive its searches merge in (the library's own when none is named).
 */
export function inProcess(library: SessionLibrary, options: { team?: TeamRef; reason?: string; close?: () => Promise<void> } = {}): Engine {
  const { team } = options;
  return {
    where: { kind: 'in-process', reason: options.reason ?? 'asked to run in process' },
    search: (query, searchOptions) => library.searchAll(query, searchOptions, team),
    searchContext: (query, contextOptions) => library.searchContextAll(query, contextOptions, team),
    get: (name, format) => library.get(name, { format, team }),
    list: async (listOptions) => library.list(listOptions),
    info: async (name) => library.info(name),
    sources: async (roots) => library.sources(roots),
    export: (name, format, exportOptions) => library.export(name, format, exportOptions),
    fileHistory: async (query) => library.fileHistory(query),
    read: (docid, offset) => library.readAny(docid, offset, team),
    store: (input, now) => library.store(input, now ? new Date(now) : undefined),
    tag: (id, tags) => library.tag(id, tags),
    untag: (id, tags) => library.untag(id, tags),
    userTags: async () => library.userTags(),
    preferences: async (project) => library.preferences({ project }),
    updatePreferences: (changes) => library.updatePreferences(changes),
    status: async () => library.status(),
    close: options.close ?? (async () => undefined),
  };
}
