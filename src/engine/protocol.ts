/**
 * The typed protocol between the resident engine and its clients, over the engine's local socket (JSON-RPC framed by
 * vscode-jsonrpc). A client says hello first: the engine answers with its version and what it reads, and the client
 * decides whether to use it, ask it to hand over (another version), or answer in process (other folders read).
 * Every other request is one method of the facade (api.ts), its params named.
 */
import { NotificationType, RequestType, RequestType0 } from 'vscode-jsonrpc';
import type { ExportOptions } from '../core/export.js';
import type { SourceReport } from '../core/library/sources-report.js';
import type { ExportFormat } from '../core/model.js';
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
import type { OutputFormat } from '../core/format.js';
import type { FileHistoryQuery, FileHistoryResponse } from '../core/answer/file-history.js';
import type { SourceRoot } from '../core/ingest/sources/registry.js';
import type { StoreInput } from '../core/library/store-conversation.js';
import type { EmbedConfig } from '../core/embed/config.js';
import type { TeamRef } from '../core/team/id.js';
import type { WatchSummary } from '../core/ingest/live.js';
import type { ContextOptions, EngineStatus, ListOptions, StoreResult } from './api.js';

/** The team archive a client searches beside the local one (its own setting): the library opens it once and keeps it. */
export type { TeamRef } from '../core/team/id.js';

/** Bumped when a request or its answer changes shape; also the product's version (a new build hands over). */
export const ENGINE_PROTOCOL = 1;

export interface HelloParams {
  /** The client's product version (empty from a command that only asks the engine to hand over) and protocol. */
  version: string;
  protocol: number;
}
export interface HelloResult {
  version: string;
  /** When the engine's build was made (version.ts ENGINE_BUILT): a client of an older build uses it, a newer one takes over. */
  built: number;
  protocol: number;
  pid: number;
  dataDir: string;
  /** What the engine reads (roots, archive): a client reading other folders answers in process. */
  config: string;
}
export const HelloRequest = new RequestType<HelloParams, HelloResult, void>('engine/hello');
/** Asked by a client of another version: the engine closes its library (snapshot written, lock released) and exits. */
export const HandOverRequest = new RequestType0<void, void>('engine/handOver');

/**
 * Sent by every client after hello. `roots`: its workspace roots (SpecStory and Aider histories of a window's folders, a
 * command's working folder), read by the engine before the answer, and while `watch` is set, watched, until the
 * client's connection closes. `team`: a window's team archive, for its requests of src/protocol.ts.
 */
export interface JoinParams {
  roots: SourceRoot[];
  /** Set by a window and an MCP server (an agent's), which stay connected; a command sends false. */
  watch: boolean;
  /** A window's index server: it is told the load's progress and what changed (the notifications of src/protocol.ts). */
  window?: boolean;
  team?: TeamRef & { projects: string[] };
  /** The user's own embedding model, named by this client (a setting, a flag): the engine ranks with it from then on. */
  embed?: EmbedConfig;
}
export const EngineJoinRequest = new RequestType<JoinParams, { roots: number }, void>('engine/join');

export interface EngineSearchParams {
  query: string;
  team?: TeamRef;
  options: SearchOptions;
  /** Answer once the first load is complete (the CLI without --partial); otherwise at once, marked partial. */
  complete?: boolean;
}
export const EngineSearchRequest = new RequestType<EngineSearchParams, SearchResponse, void>('engine/search');
export const EngineSearchContextRequest = new RequestType<
  { query: string; options: ContextOptions; complete?: boolean; team?: TeamRef },
  ContextResponse,
  void
>('engine/searchContext');
export const EngineGetRequest = new RequestType<{ name: string; format?: OutputFormat; team?: TeamRef }, GetResponse, void>('engine/get');
export const EngineFileHistoryRequest = new RequestType<{ query: FileHistoryQuery; complete?: boolean }, FileHistoryResponse, void>('engine/fileHistory');
/** One session's listing entry, found by any of its names (`session-search resume`). */
export const EngineInfoRequest = new RequestType<{ name: string; complete?: boolean }, SessionInfo, void>('engine/info');
/** A session exported (Markdown, HTML or JSON: `session-search export`), found by any of its names. */
export const EngineExportRequest = new RequestType<
  { name: string; format: ExportFormat; options: ExportOptions; complete?: boolean },
  { id: string; text: string },
  void
>('engine/export');
/** Every source, the roots a client names and the imported exports it is read from, with their sessions (`sources`). */
export const EngineSourcesRequest = new RequestType<{ roots: SourceRoot[]; complete?: boolean }, SourceReport[], void>('engine/sources');
export const EngineListRequest = new RequestType<{ options: ListOptions; complete?: boolean }, ListResponse, void>('engine/list');
export const EngineReadRequest = new RequestType<{ docid: string; offset: number; team?: TeamRef }, ReadResponse, void>('engine/read');
export const EngineStoreRequest = new RequestType<{ input: StoreInput; now?: string }, StoreResult, void>('engine/store');
export const EngineTagRequest = new RequestType<{ id: string; tags: string[]; remove?: boolean }, TagResponse, void>('engine/tag');
/** The tags people gave, with how many sessions carry each (`session-search tags`). */
export const EngineUserTagsRequest = new RequestType<object, { tag: string; sessions: number }[], void>('engine/userTags');
export const EnginePreferencesRequest = new RequestType<{ project?: string }, PreferencesResponse, void>('engine/preferences');
export const EngineUpdatePreferencesRequest = new RequestType<{ changes: Record<string, unknown> }, PreferencesResponse & { updated: true }, void>(
  'engine/updatePreferences',
);

/**
 * An agent's MCP session, served in the engine for the MCP server the agent started (src/mcp/relay.ts relays its stdio):
 * opened once per connection, before any message of it, and opened again on the next engine after a restart. `team`:
 * the archive its searches merge in; `cwd`: the folder the agent started the MCP server in (a relative path in a tool's
 * arguments is the agent's, not the engine's).
 */
export const EngineMcpOpenRequest = new RequestType<{ team?: TeamRef; cwd?: string }, void, void>('engine/mcpOpen');
/** One MCP message (a JSON-RPC message as the agent wrote it, or as the engine's MCP server answers), either way. */
export const EngineMcpNotification = new NotificationType<{ message: unknown }>('engine/mcp');

/** How far the engine's load is (answered at once, not after the library is answerable). */
export const EngineStatusRequest = new RequestType0<EngineStatus, void>('engine/status');

/** An error answered over the socket carries the product's error code, so that a client rethrows the same error. */
export interface EngineErrorData {
  code: string;
}

/** What `session-search engine status` shows of a running engine: asking does not keep it from stopping when idle. */
export interface EngineAbout {
  pid: number;
  version: string;
  dataDir: string;
  /** When the engine started (ISO), and its memory now. */
  startedAt: string;
  rssBytes: number;
  heapUsedBytes: number;
  /** Its clients: VS Code windows, MCP servers (agents), and commands (the one asking counted only if it joined: a window). */
  clients: { windows: number; agents: number; commands: number };
  /** After how long with no client and no question it stops (ms). */
  idleStopMs: number;
  /** With no client connected: how long until it stops unless asked something (ms); null while clients are connected. */
  stopsInMs: number | null;
  status: EngineStatus;
  /** What its watchers hold; `watchLimit`: how many system watches the user may hold, where the system says (Linux). */
  watching?: WatchSummary;
  watchLimit?: number;
  /** The model that ranks by meaning: learned ('ready'), being learned ('building'), or none yet ('empty'). */
  meaning: 'empty' | 'building' | 'ready';
  /** The engine's log file. */
  log: string;
}
export const EngineAboutRequest = new RequestType0<EngineAbout, void>('engine/about');
