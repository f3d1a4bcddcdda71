/**
 * The index server: its own Node process, started by the extension through vscode-languageclient over IPC. It owns a
 * SessionLibrary (reading, masking, indexing, archive, live updates) so the extension host never parses a transcript.
 */
import { addImport } from '../core/ingest/imports.js';
import { homedir } from 'node:os';
import { sessionUriString } from '../session-uri.js';
import { createConnection, ProposedFeatures, SymbolKind, type WorkspaceSymbol } from 'vscode-languageserver/node';
import type { TagResponse } from '../core/contracts.js';
import { errorMessage } from '../core/errors.js';
import { createLibrary, type SessionLibrary } from '../core/library.js';
import { LiveUpdates } from '../core/ingest/live.js';
import type { Logger } from '../core/log.js';
import { firstPrompt, turnCount } from '../core/model.js';
import { rootsFromSettings } from '../core/ingest/sources/registry.js';
import { Persistence } from '../core/store/persistence.js';
import { isTeamId } from '../core/team/view.js';
import type { TeamArchive } from '../core/team/archive.js';
import {
  ArchiveSizeRequest,
  ExportRequest,
  CancelIndexingRequest,
  ChangedNotification,
  PurgeArchiveRequest,
  GetRequest,
  IndexProgressNotification,
  ReadRequest,
  ImportRequest,
  TagRequest,
  UntagRequest,
  PreferencesRequest,
  UpdatePreferencesRequest,
  RebuildRequest,
  SearchRequest,
  SearchWorkspacesRequest,
  WorkspaceAnsweredNotification,
  TreeRequest,
  TurnsRequest,
  TeamPushRequest,
  type ArchiveSize,
  type ServerSettings,
  type TreeSession,
} from '../protocol.js';

const connection = createConnection(ProposedFeatures.all);
const logger: Logger = {
  info: (m) => connection.console.info(m),
  warn: (m) => connection.console.warn(m),
  error: (m) => connection.console.error(m),
};

let settings: ServerSettings | undefined;
let library: SessionLibrary | undefined;
let live: LiveUpdates | undefined;
let ready: Promise<SessionLibrary> | undefined;
let indexing: AbortController | undefined;
let team: Promise<TeamArchive> | undefined;

/** The team archive when one is configured (the PostgreSQL driver loads only then). */
function teamArchive(): Promise<TeamArchive> | undefined {
  const configured = settings?.team;
  if (!configured) return undefined;
  team ??= import('../core/team/archive.js').then((m) => new m.TeamArchive(configured.url, m.machineName(configured.machine, process.env)));
  return team;
}

/**
 * Opens a library over the configured roots. Requests are answered as soon as it is answerable (right after a
 * snapshot is restored); the rest of the load, then watching, continue behind them.
 */
async function open(): Promise<SessionLibrary> {
  if (!settings) throw new Error('the server was not initialised');
  await live?.close();
  await library?.close();
  const next = createLibrary({
    roots: rootsFromSettings(settings.sources, settings.workspaceFolders, process.env),
    logger,
    dataDir: settings.dataDir,
    archive: settings.archive,
    exclude: settings.exclude,
    maxFileBytes: settings.maxFileBytes,
  });
  const controller = new AbortController();
  indexing = controller;
  let last = 0;
  const loaded = next.load((p) => {
    if (Date.now() - last < 200 && p.files < p.totalFiles) return;
    last = Date.now();
    void connection.sendNotification(IndexProgressNotification, { state: 'indexing', ...p });
    if (p.files % 500 === 0 || p.files === p.totalFiles)
      logger.info(`indexing: ${p.files}/${p.totalFiles} files, ${(p.bytes / 1048576).toFixed(1)}/${(p.totalBytes / 1048576).toFixed(1)} MB`);
  }, controller.signal);
  void loaded.then(
    () => {
      if (indexing === controller) indexing = undefined;
      const reason = next.indexing.stopped;
      const state = controller.signal.aborted ? 'cancelled' : reason ? 'stopped' : 'ready';
      let unread = 0;
      for (const s of next.sessions.values()) if (s.unreadLines) unread++;
      void connection.sendNotification(IndexProgressNotification, {
        state,
        reason,
        unread,
        files: 0,
        totalFiles: 0,
        bytes: 0,
        totalBytes: 0,
        sessions: next.sessions.size,
      });
      void connection.sendNotification(ChangedNotification, { files: [] });
      live = new LiveUpdates(next, { logger, onChange: (files) => void connection.sendNotification(ChangedNotification, { files }) });
      live.start().catch((err: unknown) => logger.warn(`watching for changes failed: ${errorMessage(err)}`));
    },
    (err: unknown) => logger.error(`loading sessions failed: ${errorMessage(err)}`),
  );
  await next.ready();
  library = next;
  return next;
}

async function archiveSize(): Promise<ArchiveSize> {
  const l = await lib();
  const size = (await l.archive?.size()) ?? { bytes: 0, entries: 0 };
  const snapshotBytes = settings ? await Persistence.snapshotBytes(settings.dataDir) : 0;
  return { enabled: l.archive !== undefined, dir: l.archive?.dir ?? '', ...size, snapshotBytes };
}

function treeSessions(lib: SessionLibrary, limit?: number): TreeSession[] {
  return [...lib.sessions.values()]
    .sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0))
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

connection.onInitialize((params) => {
  settings = params.initializationOptions as ServerSettings;
  return { capabilities: { workspaceSymbolProvider: settings.workspaceSymbols } };
});

connection.onInitialized(() => {
  ready = open();
  ready.catch((err: unknown) => logger.error(`loading sessions failed: ${errorMessage(err)}`));
});

const lib = async (): Promise<SessionLibrary> => library ?? (await (ready ?? open()));

connection.onRequest(SearchRequest, async ({ query, scope, ...options }) => {
  const library = await lib();
  const local = options.groupBy ? await library.searchGrouped(query, options) : library.search(query, options);
  const archive = scope === 'team' && !options.groupBy ? teamArchive() : undefined;
  return archive ? (await archive).search(local, query, options, library.index) : local;
});
let workspaceSearch: AbortController | undefined;
connection.onRequest(SearchWorkspacesRequest, async ({ searchId, query, scope: _scope, ...options }) => {
  workspaceSearch?.abort();
  const controller = (workspaceSearch = new AbortController());
  const summary = await (
    await lib()
  ).searchWorkspaces(query, options, (answer) => void connection.sendNotification(WorkspaceAnsweredNotification, { searchId, ...answer }), controller.signal);
  if (workspaceSearch === controller) workspaceSearch = undefined;
  return { searchId, ...summary };
});
connection.onRequest(TreeRequest, async ({ limit, scope }) => {
  const local = treeSessions(await lib(), limit);
  const archive = scope === 'team' ? teamArchive() : undefined;
  if (!archive) return local;
  // the tree shows what it can: a team archive that does not answer leaves the local sessions, and says so in the log
  const team = await (await archive).recent().catch((err: unknown) => {
    logger.warn(`team sessions for the tree: ${errorMessage(err)}`);
    return [];
  });
  // newest first, as the tree groups them
  return [...local, ...team].sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
});
const teamFor = (id: string): Promise<TeamArchive> | undefined => (isTeamId(id) ? teamArchive() : undefined);
connection.onRequest(GetRequest, async ({ name, format }) => (await teamFor(name))?.get(name, format) ?? (await lib()).get(name, { format }));
connection.onRequest(ReadRequest, async ({ docid, offset }) => (await teamFor(docid))?.read(docid, offset ?? 0) ?? (await lib()).read(docid, offset ?? 0));
connection.onRequest(TurnsRequest, async ({ id, from, to, query }) => {
  const archive = teamFor(id);
  return (archive ? (await archive).turnWindow(id, from, to, query) : (await lib()).turnWindow(id, from, to, query)) ?? null;
});
connection.onRequest(TeamPushRequest, async () => {
  const archive = teamArchive();
  if (!archive || !settings?.team) throw new Error('no team archive is configured: set sessionSearch.team.database in your user settings.');
  const { pushSessions } = await import('../core/team/push.js');
  const { machine } = await archive;
  return pushSessions((await archive).db, (await lib()).sessions.values(), { machine, projects: settings.team.projects });
});
connection.onRequest(ImportRequest, async ({ path }) => {
  if (!settings) throw new Error('the server was not initialised');
  const { added, known } = await addImport(settings.dataDir, path);
  if (!added.length) return { added, known, sessions: 0 };
  // open again over the roots with the new exports: the snapshot is kept, only the new files are read
  indexing?.abort();
  ready = open();
  const opened = await ready;
  await opened.loaded;
  const files = new Set(added.map((r) => r.path));
  return { added, known, sessions: [...opened.sessions.values()].filter((s) => files.has(s.file)).length };
});
connection.onRequest(RebuildRequest, async () => {
  indexing?.abort();
  await live?.close();
  live = undefined;
  await library?.close();
  library = undefined;
  if (settings) await Persistence.discard(settings.dataDir);
  ready = open();
  await ready;
});
connection.onRequest(CancelIndexingRequest, () => {
  if (!indexing) return false;
  indexing.abort();
  return true;
});
connection.onRequest(ArchiveSizeRequest, archiveSize);
connection.onRequest(ExportRequest, async ({ id, format, redactHome }) => (await lib()).export(id, format, redactHome ? { home: homedir() } : {}));
const tagged = (response: TagResponse): TagResponse => {
  void connection.sendNotification(ChangedNotification, { files: [] });
  return response;
};
connection.onRequest(TagRequest, async ({ id, tags }) => tagged(await (await lib()).tag(id, tags)));
connection.onRequest(UntagRequest, async ({ id, tags }) => tagged(await (await lib()).untag(id, tags)));
connection.onRequest(PreferencesRequest, async ({ project }) => (await lib()).preferences({ project }));
connection.onRequest(UpdatePreferencesRequest, async ({ preferences }) => (await lib()).updatePreferences(preferences));
connection.onRequest(PurgeArchiveRequest, async () => {
  await (await lib()).purgeArchive();
  void connection.sendNotification(ChangedNotification, { files: [] });
  return archiveSize();
});

connection.onWorkspaceSymbol(async ({ query }): Promise<WorkspaceSymbol[]> => {
  if (!query.trim()) return [];
  const l = await lib();
  return l.suggestTitles(query, 50).map((s) => ({
    name: s.topic,
    kind: SymbolKind.Event,
    containerName: `${s.source} · ${s.created.slice(0, 10)}`,
    location: {
      uri: sessionUriString(s.id, s.topic),
    },
  }));
});

connection.onShutdown(async () => {
  indexing?.abort();
  await (await team?.catch(() => undefined))?.close();
  await live?.close();
  await library?.close();
});

connection.listen();
