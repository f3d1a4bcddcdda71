/**
 * The index server: a window's own Node process, started by the extension through vscode-languageclient over IPC, so
 * that the extension host never parses a transcript. It relays the window's requests (src/protocol.ts) to the data
 * folder's engine, which every window, agent and command shares (the engine is started if none runs, and the window's
 * SpecStory and Aider folders are registered with it while the window is open); where no engine can serve (another
 * configuration of sources, SESSION_SEARCH_ENGINE=off, no socket possible) it says why in the log and holds a library
 * of its own, answered by the same code (engine/window.ts).
 */
import { createConnection, ProposedFeatures, SymbolKind, type WorkspaceSymbol } from 'vscode-languageserver/node';
import { errorMessage } from '../core/errors.js';
import { rootsFromSettings } from '../core/ingest/sources/registry.js';
import type { Logger } from '../core/log.js';
import { engineEntry, openEngine, type RemoteEngine } from '../engine/client.js';
import { windowMethods } from '../engine/window.js';
import type { Handler } from './local.js';
import { sessionUriString } from '../session-uri.js';
import { ENGINE_VERSION } from '../version.js';
import {
  ChangedNotification,
  IndexProgressNotification,
  TitlesRequest,
  WorkspaceAnsweredNotification,
  type IndexProgress,
  type ServerSettings,
  type TitleMatch,
} from '../protocol.js';

const connection = createConnection(ProposedFeatures.all);
const logger: Logger = {
  info: (m) => connection.console.info(m),
  warn: (m) => connection.console.warn(m),
  error: (m) => connection.console.error(m),
};

let settings: ServerSettings | undefined;
const roots = (s: ServerSettings) => rootsFromSettings(s.sources, s.workspaceFolders, process.env);

// ─── where the answers come from: the engine, or a library of this process ──────────────────────────────────────

let backend: Promise<{ engine: RemoteEngine } | { local: Map<string, Handler> }> | undefined;

/** Connects to the engine (started if need be), relaying its notifications; or opens the library here. */
async function connect(s: ServerSettings): Promise<{ engine: RemoteEngine } | { local: Map<string, Handler> }> {
  const team = s.team ? { url: s.team.url, machine: s.team.machine } : undefined;
  const opened = await openEngine({
    roots: roots(s),
    dataDir: s.dataDir,
    archive: s.archive,
    exclude: s.exclude,
    maxFileBytes: s.maxFileBytes,
    watchWorkspace: true,
    window: true,
    windowTeam: team && { ...team, projects: s.team?.projects ?? [] },
    embed: s.embed,
    version: ENGINE_VERSION,
    entry: engineEntry(),
  });
  if ('reason' in opened) {
    logger.info(`answering in this window's own process: ${opened.reason}`);
    // (the library loads only then: a window the engine answers never reads it)
    const { localAnswers } = await import('./local.js');
    return { local: localAnswers(connection, s, logger) };
  }
  const { engine } = opened;
  logger.info(`answering from the engine of ${s.dataDir} (pid ${engine.where.kind === 'engine' ? engine.where.pid : '?'})`);
  for (const type of [IndexProgressNotification, ChangedNotification, WorkspaceAnsweredNotification])
    engine.onNotification(type.method, (params) => void connection.sendNotification(type.method, params));
  // the window shows where the engine's load is, whether it joins at the start or long after
  const status = await engine.status();
  const progress: IndexProgress =
    status.complete || status.stopped
      ? { state: status.stopped ? 'stopped' : 'ready', reason: status.stopped, files: 0, totalFiles: 0, bytes: 0, totalBytes: 0, sessions: status.sessions }
      : {
          state: 'indexing',
          files: status.filesDone,
          totalFiles: status.filesTotal,
          bytes: status.bytesDone,
          totalBytes: status.bytesTotal,
          sessions: status.sessions,
        };
  void connection.sendNotification(IndexProgressNotification, progress);
  void connection.sendNotification(ChangedNotification, { files: [] });
  return { engine };
}

// ─── the window's requests, each answered by whichever holds the library ───────────────────────────────────────

async function answer(method: string, params: unknown): Promise<unknown> {
  const b = await (backend ?? Promise.reject(new Error('the server was not initialised')));
  if ('engine' in b) return b.engine.request(method, params);
  const handler = b.local.get(method);
  if (!handler) throw new Error(`unknown request ${method}`);
  return handler(params);
}

for (const method of windowMethods()) connection.onRequest(method, (params: unknown) => answer(method, params));

connection.onInitialize((params) => {
  settings = params.initializationOptions as ServerSettings;
  return { capabilities: { workspaceSymbolProvider: settings.workspaceSymbols } };
});

connection.onInitialized(() => {
  backend = connect(settings!);
  backend.catch((err: unknown) => logger.error(`starting the index failed: ${errorMessage(err)}`));
});

connection.onWorkspaceSymbol(async ({ query }): Promise<WorkspaceSymbol[]> => {
  if (!query.trim()) return [];
  const titles = (await answer(TitlesRequest.method, { query, limit: 50 })) as TitleMatch[];
  return titles.map((s) => ({
    name: s.topic,
    kind: SymbolKind.Event,
    containerName: `${s.source} · ${s.created.slice(0, 10)}`,
    location: { uri: sessionUriString(s.id, s.topic) },
  }));
});

connection.onShutdown(async () => {
  const b = await backend?.catch(() => undefined);
  if (b && 'engine' in b) return b.engine.close();
  await (await import('./local.js')).closeLocal();
});

connection.listen();
