/**
 * The requests a VS Code window asks (src/protocol.ts: tree, search, the workspace view, the reader's turns, export,
 * tags, import, rebuild, the archive), answered over a library: by the engine for each window connected to it, and by
 * the index server itself when it runs its library in process. One set of answers, whoever holds the library.
 */
import { homedir } from 'node:os';
import type { RequestType, RequestType0 } from 'vscode-jsonrpc';
import type { TagResponse } from '../core/contracts.js';
import type { SessionLibrary } from '../core/library.js';
import type { Logger } from '../core/log.js';
import type { TeamRef } from '../core/team/id.js';
import {
  ArchiveSizeRequest,
  EmbeddingsRequest,
  CancelIndexingRequest,
  ExportRequest,
  FileHistoryRequest,
  DecisionsRequest,
  GetRequest,
  ImportRequest,
  PreferencesRequest,
  PurgeArchiveRequest,
  ReadRequest,
  RebuildRequest,
  SearchRequest,
  SearchWorkspacesRequest,
  TagRequest,
  TeamPushRequest,
  TitlesRequest,
  TreeRequest,
  TurnsRequest,
  UntagRequest,
  UpdatePreferencesRequest,
  type ImportResult,
  type IndexProgress,
  type WorkspaceAnsweredParams,
} from '../protocol.js';

/** What answers a window: its library, its team archive, and how it tells that window (or every window) things. */
export interface WindowHost {
  library(): Promise<SessionLibrary>;
  logger: Logger;
  /** The window's team archive (sessionSearch.team.*), which the library opens when first asked. */
  team(): TeamRef | undefined;
  teamProjects(): string[];
  /** Sessions changed: every window showing them refreshes. */
  changed(files: string[]): void;
  workspaceAnswered(params: WorkspaceAnsweredParams): void;
  importExport(path: string): Promise<ImportResult>;
  rebuild(): Promise<void>;
  cancelIndexing(): boolean;
}

/** The part of a connection the answers are registered on (vscode-languageserver's and vscode-jsonrpc's both fit). */
export interface RequestHost {
  onRequest(method: string, handler: (...params: never[]) => unknown): unknown;
}

/** The progress a window shows for a load that has finished (or stopped, or was cancelled). */
export function finishedProgress(library: SessionLibrary, cancelled: boolean): IndexProgress {
  const { stopped: reason, unread, sessions, storage } = library.status();
  const state = cancelled ? 'cancelled' : reason ? 'stopped' : 'ready';
  const kept = storage ? { storage: { detail: storage.detail, advice: storage.advice } } : {};
  return { state, reason, unread, files: 0, totalFiles: 0, bytes: 0, totalBytes: 0, sessions, ...kept };
}

/** Registers every window request on `connection`, answered over `host`. */
export function serveWindow(connection: RequestHost, host: WindowHost): void {
  const on = <P, R>(type: RequestType<P, R, void>, run: (params: P) => R | Promise<R>): void => {
    connection.onRequest(type.method, (params: P) => run(params));
  };
  const on0 = <R>(type: RequestType0<R, void>, run: () => R | Promise<R>): void => {
    connection.onRequest(type.method, () => run());
  };
  const lib = (): Promise<SessionLibrary> => host.library();
  const tagged = (response: TagResponse): TagResponse => {
    host.changed([]);
    return response;
  };
  on(SearchRequest, async ({ query, scope, ...options }) => (await lib()).searchAll(query, options, scope === 'team' ? host.team() : undefined));
  // a newer workspace search stops an older one of the same window
  let workspaceSearch: AbortController | undefined;
  on(SearchWorkspacesRequest, async ({ searchId, query, scope: _scope, ...options }) => {
    workspaceSearch?.abort();
    const controller = (workspaceSearch = new AbortController());
    const summary = await (await lib()).searchWorkspaces(query, options, (answer) => host.workspaceAnswered({ searchId, ...answer }), controller.signal);
    if (workspaceSearch === controller) workspaceSearch = undefined;
    return { searchId, ...summary };
  });
  on(TreeRequest, async ({ limit, scope }) => (await lib()).tree(limit, scope === 'team' ? host.team() : undefined));
  on(GetRequest, async ({ name, format }) => (await lib()).get(name, { format, team: host.team() }));
  on(ReadRequest, async ({ docid, offset }) => (await lib()).readAny(docid, offset ?? 0, host.team()));
  on(TurnsRequest, async ({ id, from, to, query }) => (await (await lib()).turnsOf(id, from, to, query, host.team())) ?? null);
  on(FileHistoryRequest, async (query) => (await lib()).fileHistory(query));
  on(DecisionsRequest, async ({ project }) => (await lib()).decisions({ project }));
  on(TitlesRequest, async ({ query, limit }) =>
    (await lib()).suggestTitles(query, limit).map((s) => ({ id: s.id, topic: s.topic, source: s.source, created: s.created })),
  );
  on0(TeamPushRequest, async () => {
    const team = host.team();
    if (!team) throw new Error('no team archive is configured: set sessionSearch.team.database in your user settings.');
    return (await lib()).pushToTeam(team, { projects: host.teamProjects() });
  });
  on(ImportRequest, ({ path }) => host.importExport(path));
  on0(RebuildRequest, () => host.rebuild());
  on0(CancelIndexingRequest, () => host.cancelIndexing());
  on0(ArchiveSizeRequest, async () => (await lib()).archiveInfo());
  on0(EmbeddingsRequest, async () => (await lib()).embeddings() ?? null);
  on(ExportRequest, async ({ id, format, redactHome }) => (await lib()).export(id, format, redactHome ? { home: homedir() } : {}));
  on(TagRequest, async ({ id, tags }) => tagged(await (await lib()).tag(id, tags)));
  on(UntagRequest, async ({ id, tags }) => tagged(await (await lib()).untag(id, tags)));
  on(PreferencesRequest, async ({ project }) => (await lib()).preferences({ project }));
  on(UpdatePreferencesRequest, async ({ preferences }) => (await lib()).updatePreferences(preferences));
  on0(PurgeArchiveRequest, async () => {
    const library = await lib();
    await library.purgeArchive();
    host.changed([]);
    return library.archiveInfo();
  });
}

/** The methods `serveWindow` answers: what the index server relays to the engine, one by one. */
export function windowMethods(): string[] {
  const methods: string[] = [];
  // registering only records the names: no answer runs, so no host is needed
  serveWindow({ onRequest: (method) => methods.push(method) }, undefined as never);
  return methods;
}
