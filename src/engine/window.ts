/**
 * The requests a VS Code window asks (src/protocol.ts: tree, search, the workspace view, the reader's turns, export,
 * tags, import, rebuild, the archive), answered over a library: by the engine for each window connected to it, and by
 * the index server itself when it runs its library in process. One set of answers, whoever holds the library.
 */
import { homedir } from 'node:os';
import type { RequestType, RequestType0 } from 'vscode-jsonrpc';
import type { TagResponse } from '../core/contracts.js';
import { errorMessage } from '../core/errors.js';
import type { SessionLibrary } from '../core/library.js';
import type { Logger } from '../core/log.js';
import { firstPrompt, turnCount } from '../core/model.js';
import { Persistence } from '../core/store/persistence.js';
import type { TeamArchive } from '../core/team/archive.js';
import { isTeamId } from '../core/team/id.js';
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
  type ArchiveSize,
  type ImportResult,
  type IndexProgress,
  type TreeSession,
  type WorkspaceAnsweredParams,
} from '../protocol.js';

/** What answers a window: its library, its team archive, and how it tells that window (or every window) things. */
export interface WindowHost {
  library(): Promise<SessionLibrary>;
  dataDir: string;
  logger: Logger;
  /** The window's team archive (sessionSearch.team.*), opened when first asked. */
  team(): Promise<TeamArchive> | undefined;
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
  const reason = library.indexing.stopped;
  let unread = 0;
  for (const s of library.sessions.values()) if (s.unreadLines) unread++;
  const state = cancelled ? 'cancelled' : reason ? 'stopped' : 'ready';
  return { state, reason, unread, files: 0, totalFiles: 0, bytes: 0, totalBytes: 0, sessions: library.sessions.size };
}

export async function archiveSize(l: SessionLibrary, dataDir: string): Promise<ArchiveSize> {
  const size = (await l.archive?.size()) ?? { bytes: 0, entries: 0 };
  return { enabled: l.archive !== undefined, dir: l.archive?.dir ?? '', ...size, snapshotBytes: await Persistence.snapshotBytes(dataDir) };
}

const newestFirst = (a: { updated: string }, b: { updated: string }): number => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0);

function treeSessions(lib: SessionLibrary, limit?: number): TreeSession[] {
  return [...lib.sessions.values()]
    .sort(newestFirst)
    .slice(0, limit ?? Infinity)
    .map((s) => ({
      id: s.id,
      source: s.source,
      project: s.project,
      branch: s.branch,
      filename: s.filename,
      topic: s.topic,
      date: s.created,
      updated: s.updated,
      file: s.file,
      size: s.size,
      turns: turnCount(s),
      nativeId: s.nativeId,
      firstPrompt: firstPrompt(s)?.slice(0, 300),
      sourceDeleted: s.sourceDeleted,
      parentId: s.parentId,
      unreadLines: s.unreadLines?.count,
      userTags: lib.userTagsOf(s.id),
      topics: s.topics,
    }));
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
  const teamFor = (id: string): Promise<TeamArchive> | undefined => (isTeamId(id) ? host.team() : undefined);
  const tagged = (response: TagResponse): TagResponse => {
    host.changed([]);
    return response;
  };
  on(SearchRequest, async ({ query, scope, ...options }) => {
    const library = await lib();
    if (options.mode !== 'lexical') await library.prepare(query);
    if (options.groupBy) return library.searchGrouped(query, options);
    // planned once: the team archive is asked with the local search's words and forms
    const plan = library.plan(query, options);
    const local = library.searchPlan(plan, query);
    const archive = scope === 'team' ? host.team() : undefined;
    return archive ? (await archive).search(local, plan, options, library.index) : local;
  });
  // a newer workspace search stops an older one of the same window
  let workspaceSearch: AbortController | undefined;
  on(SearchWorkspacesRequest, async ({ searchId, query, scope: _scope, ...options }) => {
    workspaceSearch?.abort();
    const controller = (workspaceSearch = new AbortController());
    const summary = await (await lib()).searchWorkspaces(query, options, (answer) => host.workspaceAnswered({ searchId, ...answer }), controller.signal);
    if (workspaceSearch === controller) workspaceSearch = undefined;
    return { searchId, ...summary };
  });
  on(TreeRequest, async ({ limit, scope }) => {
    const local = treeSessions(await lib(), limit);
    const archive = scope === 'team' ? host.team() : undefined;
    if (!archive) return local;
    // the tree shows what it can: a team archive that does not answer leaves the local sessions, and says so in the log
    const team = await (await archive).recent().catch((err: unknown) => {
      host.logger.warn(`team sessions for the tree: ${errorMessage(err)}`);
      return [];
    });
    return [...local, ...team].sort(newestFirst);
  });
  on(GetRequest, async ({ name, format }) => (await teamFor(name))?.get(name, format) ?? (await lib()).get(name, { format }));
  on(ReadRequest, async ({ docid, offset }) => (await teamFor(docid))?.read(docid, offset ?? 0) ?? (await lib()).read(docid, offset ?? 0));
  on(TurnsRequest, async ({ id, from, to, query }) => {
    const archive = teamFor(id);
    return (archive ? (await archive).turnWindow(id, from, to, query) : (await lib()).turnWindow(id, from, to, query)) ?? null;
  });
  on(FileHistoryRequest, async (query) => (await lib()).fileHistory(query));
  on(DecisionsRequest, async ({ project }) => (await lib()).decisions({ project }));
  on(TitlesRequest, async ({ query, limit }) =>
    (await lib()).suggestTitles(query, limit).map((s) => ({ id: s.id, topic: s.topic, source: s.source, created: s.created })),
  );
  on0(TeamPushRequest, async () => {
    const archive = host.team();
    if (!archive) throw new Error('no team archive is configured: set sessionSearch.team.database in your user settings.');
    const { pushSessions } = await import('../core/team/push.js');
    const { machine, db } = await archive;
    const library = await lib();
    return pushSessions(db, library.sessions.values(), { machine, projects: host.teamProjects(), turns: (s) => library.turns.all(s) });
  });
  on(ImportRequest, ({ path }) => host.importExport(path));
  on0(RebuildRequest, () => host.rebuild());
  on0(CancelIndexingRequest, () => host.cancelIndexing());
  on0(ArchiveSizeRequest, async () => archiveSize(await lib(), host.dataDir));
  on0(EmbeddingsRequest, async () => (await lib()).meaning?.state ?? null);
  on(ExportRequest, async ({ id, format, redactHome }) => (await lib()).export(id, format, redactHome ? { home: homedir() } : {}));
  on(TagRequest, async ({ id, tags }) => tagged(await (await lib()).tag(id, tags)));
  on(UntagRequest, async ({ id, tags }) => tagged(await (await lib()).untag(id, tags)));
  on(PreferencesRequest, async ({ project }) => (await lib()).preferences({ project }));
  on(UpdatePreferencesRequest, async ({ preferences }) => (await lib()).updatePreferences(preferences));
  on0(PurgeArchiveRequest, async () => {
    const library = await lib();
    await library.purgeArchive();
    host.changed([]);
    return archiveSize(library, host.dataDir);
  });
}

/** The methods `serveWindow` answers: what the index server relays to the engine, one by one. */
export function windowMethods(): string[] {
  const methods: string[] = [];
  // registering only records the names: no answer runs, so no host is needed
  serveWindow({ onRequest: (method) => methods.push(method) }, undefined as never);
  return methods;
}
