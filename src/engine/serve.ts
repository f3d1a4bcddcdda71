/**
 * `session-search serve`: the resident engine of one data folder. It owns the library (which owns its load, watchers,
 * writer lock, snapshot, team archives and the order they close in) and stopping in time, and answers every client over
 * a local socket that only its user can reach (paths.ts). Started by the first client that needs it; gone once no client
 * has been connected and no query asked for IDLE_MS (SESSION_SEARCH_ENGINE_IDLE_MS overrides it), or when a client of another version asks it to hand
 * over. Its log goes to engine/engine.log in the data folder. A team archive is opened when a client first names it.
 */
import { appendFileSync, chmodSync, existsSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { ResponseError, type MessageConnection, type RequestType } from 'vscode-jsonrpc/node';
import { errorCode, errorMessage } from '../core/errors.js';
import { splitRoots, type SourceRoot } from '../core/ingest/sources/registry.js';
import { WorkspaceRoots } from './workspace-roots.js';
import { EngineWindows } from './windows.js';
import { createLibrary } from '../core/library.js';
import { embedConfigFromEnv } from '../core/embed/config.js';
import type { Logger } from '../core/log.js';
import { inProcess, type Engine } from './api.js';
import { engineConfig, enginePaths, privateFolder } from './paths.js';
import { canConnect, socketConnection } from './socket.js';
import { claim, holdsClaim, listenAlone } from './claim.js';
import { serveMcp } from './mcp-session.js';
import { keepCodeCache } from './code-cache.js';
import { productBuilt } from './client.js';
import {
  ENGINE_PROTOCOL,
  EngineAboutRequest,
  EngineGetRequest,
  EngineExportRequest,
  EngineInfoRequest,
  EngineSourcesRequest,
  EngineListRequest,
  EngineFileHistoryRequest,
  EnginePreferencesRequest,
  EngineReadRequest,
  EngineJoinRequest,
  EngineSearchContextRequest,
  EngineSearchRequest,
  EngineStatusRequest,
  EngineStoreRequest,
  EngineTagRequest,
  EngineUserTagsRequest,
  EngineUpdatePreferencesRequest,
  HandOverRequest,
  HelloRequest,
  type EngineErrorData,
  type TeamRef,
} from './protocol.js';

/**
 * How long an engine with no client and no query stays up: long enough that a terminal session's commands share it.
 * A workspace folder a client named stays read (and watched) as long after its last client went.
 */
export const IDLE_MS = 15 * 60_000;

/** How long an engine asked to stop takes at most to close in order (snapshot written, lock released). */
const STOP_MS = 30_000;

/** How long a complete answer waits for changes the watchers saw to be read. */
const SETTLE_MS = 1_000;

/** An engine's log past this size at its start is kept as engine.log.1 and a new one begun. */
const LOG_BYTES = 1024 * 1024;

export interface ServeOptions {
  roots: SourceRoot[];
  dataDir: string;
  archive: boolean;
  exclude?: string[];
  maxFileBytes?: number;
  verbose: boolean;
  version: string;
  env?: NodeJS.ProcessEnv;
}

function fileLogger(path: string, verbose: boolean): Logger {
  const write = (level: string, message: string): void => {
    const line = `${new Date().toISOString()} ${level}: ${message}\n`;
    try {
      appendFileSync(path, line, { mode: 0o600 });
    } catch {
      // a log that cannot be written is not a reason to stop answering
    }
    if (verbose) process.stderr.write(`[session-search engine] ${line}`);
  };
  return { info: (m) => write('info', m), warn: (m) => write('warn', m), error: (m) => write('error', m) };
}

/** How many inotify watches the user may hold (Linux; undefined elsewhere or where it cannot be read). */
function watchLimit(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return Number(readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim()) || undefined;
  } catch {
    return undefined;
  }
}

/** Runs the engine until it is idle, asked to hand over, or signalled. Resolves once everything is closed. */
export async function serveEngine(options: ServeOptions): Promise<void> {
  const env = options.env ?? process.env;
  const paths = enginePaths(options.dataDir);
  privateFolder(paths.dir);
  if (dirname(paths.socket) !== paths.dir && process.platform !== 'win32') privateFolder(dirname(paths.socket));
  // the log is kept to its last two megabytes or so: the previous one is engine.log.1
  if (existsSync(paths.log) && statSync(paths.log).size > LOG_BYTES) renameSync(paths.log, `${paths.log}.1`);
  const logger = fileLogger(paths.log, options.verbose);
  const another = (): void => logger.info(`another engine serves ${options.dataDir}: this one (pid ${process.pid}) stops`);
  if (!claim(paths.pidFile)) return another();
  if (await canConnect(paths.socket)) {
    rmSync(paths.pidFile, { force: true });
    return another();
  }
  const idleMs = Number(env.SESSION_SEARCH_ENGINE_IDLE_MS) || IDLE_MS;
  const config = engineConfig(options);
  logger.info(`engine ${options.version} (pid ${process.pid}) serving ${options.dataDir}`);

  // the machine's roots are read for everyone; a workspace's, for the clients that name them (engine/roots)
  const roots = splitRoots(options.roots).machine;
  const { exclude, maxFileBytes } = options;
  const library = createLibrary({
    roots,
    logger,
    dataDir: options.dataDir,
    archive: options.archive,
    exclude,
    maxFileBytes,
    env,
    embed: embedConfigFromEnv(env),
    // (every window connected refreshes when sessions change)
    watch: { onChange: (files) => windows.changed(files) },
  });
  const workspaces = new WorkspaceRoots(library, logger, idleMs);
  // the answers with the team archive each client named (the library opens it once and keeps it until it closes)
  const local = inProcess(library);
  const withTeam = (team: TeamRef | undefined): Engine => (team ? inProcess(library, { team }) : local);
  const windows = new EngineWindows(library, { dataDir: options.dataDir, logger });
  const loaded = library
    .load(windows.progress, windows.loading.signal)
    .then(() => windows.finished())
    .catch((err: unknown) => logger.error(`loading sessions failed: ${errorMessage(err)}`));
  const writeCodeCache = keepCodeCache(logger, loaded);

  const connections = new Set<MessageConnection>();
  const sockets = new Set<Socket>();
  // what each client joined as (none: a command), and the connections that only asked how the engine is
  const kinds = new Map<MessageConnection, 'window' | 'agent'>();
  const observers = new Set<MessageConnection>();
  const startedAt = new Date().toISOString();
  let lastActivity = Date.now();
  let stopping: Promise<void> | undefined;
  // whether this engine listened on the socket (only then is the socket file its own to remove)
  let served = false;
  // (connections are served once it listens, below)
  const server: Server = createServer((socket) => serveConnection(socket));
  const stop = (why: string): Promise<void> =>
    (stopping ??= (async () => {
      logger.info(`engine stops: ${why}`);
      server.close();
      workspaces.close();
      for (const c of connections) c.dispose();
      // its clients notice at once, and start or find the next engine
      for (const socket of sockets) socket.destroy();
      let step = 'the load';
      const orderly = async (): Promise<void> => {
        await loaded;
        writeCodeCache();
        step = 'the library (watchers, team archives, snapshot, writer lock)';
        await library.close();
      };
      let deadline: NodeJS.Timeout | undefined;
      try {
        // an engine asked to stop stops: what it could not close in time is what a crash would leave, and is resumed
        await Promise.race([
          orderly(),
          new Promise<never>((_, reject) => (deadline = setTimeout(() => reject(new Error(`${step} not closed after ${STOP_MS / 1000} s`)), STOP_MS))),
        ]);
      } catch (err) {
        logger.error(`stopping: ${errorMessage(err)}`);
      } finally {
        clearTimeout(deadline);
        // whatever happened, the next client finds no engine here and starts one
        if (process.platform !== 'win32' && served) rmSync(paths.socket, { force: true });
        if (holdsClaim(paths.pidFile)) rmSync(paths.pidFile, { force: true });
      }
    })());

  // every answer waits for the library to be answerable (a restored snapshot), `complete` ones for the whole load
  let firstAnswered = false;
  const answer = async <P, R>(params: P, run: (params: P) => Promise<R>): Promise<R> => {
    lastActivity = Date.now();
    try {
      await library.ready();
      const complete = (params as { complete?: boolean }).complete === true;
      if (complete) {
        await library.untilLoaded();
        // a change the watchers saw just before (a transcript deleted, a turn appended) is read first, as a command
        // loading in its own process would have read it; a file an agent keeps writing is read as it is now, and what
        // it writes after is not waited for
        await library.changesRead(SETTLE_MS);
      }
      const answered = await run(params);
      // how long a start took to its first complete answer (read by bench:machine; a slow start is seen in the log)
      if (complete && !firstAnswered) {
        firstAnswered = true;
        logger.info(`first complete answer ${Math.round(performance.now())} ms after the engine's process started`);
      }
      return answered;
    } catch (err) {
      throw new ResponseError<EngineErrorData>(1, errorMessage(err), { code: errorCode(err) });
    } finally {
      lastActivity = Date.now();
    }
  };
  const serveConnection = (socket: Socket): void => {
    const connection = socketConnection(socket);
    connections.add(connection);
    sockets.add(socket);
    // (a connected client keeps the engine up; its going, unless it only asked how the engine is, starts the idle time)
    socket.on('close', () => {
      void mcp.close();
      void workspaces.release(connection);
      windows.release(connection);
      connections.delete(connection);
      sockets.delete(socket);
      kinds.delete(connection);
      if (!observers.delete(connection)) lastActivity = Date.now();
      connection.dispose();
    });
    socket.on('error', () => undefined);
    // (the version a client gave: none from a command that only asks the engine to go or how it is)
    let clientVersion = '';
    connection.onRequest(HelloRequest, (params) => {
      clientVersion = params.version;
      return { version: options.version, built: productBuilt(env), protocol: ENGINE_PROTOCOL, pid: process.pid, dataDir: options.dataDir, config };
    });
    connection.onRequest(HandOverRequest, () => {
      // answered first, then closed: the client waits for the socket to go before it starts its own engine
      const why = clientVersion
        ? `a client of version ${clientVersion} asked to hand over`
        : 'asked to let go of the data folder (engine stop, or a command that changes it)';
      setImmediate(() => void stop(why).finally(() => process.exit(0)));
    });
    // A command sends its join and its request together (one round trip less to its answer): its requests wait for its
    // workspace roots to be read, and fail as its join did
    let joining: Promise<unknown> | undefined;
    const on = <P, R>(type: RequestType<P, R, void>, run: (params: P) => Promise<R>): void => {
      const afterJoin = async (params: P): Promise<R> => {
        await joining;
        return run(params);
      };
      connection.onRequest(type, ((params: P) => answer(params, afterJoin)) as never);
    };
    connection.onRequest(EngineStatusRequest, () => local.status());
    // an agent's MCP session, its stdio relayed by the MCP server it started
    const mcp = serveMcp(
      connection,
      (team) => library.ready().then(() => withTeam(team)),
      logger,
      () => (lastActivity = Date.now()),
    );
    connection.onRequest(EngineAboutRequest, () => {
      // a command asking only how the engine is is not one of its clients; a window asking is
      const joined = kinds.has(connection);
      if (!joined) observers.add(connection);
      const others = joined ? [...connections] : [...connections].filter((c) => c !== connection);
      const windowCount = others.filter((c) => kinds.get(c) === 'window').length;
      const agentCount = others.filter((c) => kinds.get(c) === 'agent').length;
      const memory = process.memoryUsage();
      return {
        pid: process.pid,
        version: options.version,
        dataDir: options.dataDir,
        startedAt,
        rssBytes: memory.rss,
        heapUsedBytes: memory.heapUsed,
        clients: { windows: windowCount, agents: agentCount, commands: others.length - windowCount - agentCount },
        idleStopMs: idleMs,
        stopsInMs: others.length ? null : Math.max(0, idleMs - (Date.now() - lastActivity)),
        status: library.status(),
        meaning: library.semanticState().status,
        watching: library.watching(),
        watchLimit: watchLimit(),
        log: paths.log,
      };
    });
    // (the team is the window's at once, before any request it sends next; its roots are read after the first load)
    connection.onRequest(EngineJoinRequest, async (p) => {
      windows.joined(connection, p);
      if (p.window || p.watch) kinds.set(connection, p.window ? 'window' : 'agent');
      // the user's model, as the client that joined last named it (checked: a bad one is logged, and ranks without it)
      if (p.embed) library.useModel(p.embed);
      const registered = workspaces.register(connection, p.roots, p.watch);
      if (!p.watch && !p.window) joining = registered;
      return { roots: await registered };
    });
    windows.serve(connection);
    on(EngineSearchRequest, async (p) => {
      const engine = withTeam(p.team);
      const response = await engine.search(p.query, p.options);
      if (!p.complete) return response;
      // a complete answer never names as present a transcript deleted before its watcher said so: read those again
      const gone = response.results.filter((r) => !r.owner && !r.sourceDeleted && r.file && !existsSync(r.file)).map((r) => r.file);
      if (!gone.length) return response;
      await library.recheck(gone);
      return engine.search(p.query, p.options);
    });
    on(EngineSearchContextRequest, (p) => withTeam(p.team).searchContext(p.query, p.options));
    on(EngineGetRequest, (p) => withTeam(p.team).get(p.name, p.format));
    on(EngineListRequest, (p) => local.list(p.options));
    on(EngineExportRequest, (p) => local.export(p.name, p.format, p.options));
    on(EngineSourcesRequest, (p) => local.sources(p.roots));
    on(EngineInfoRequest, async (p) => {
      // (as for a search: a transcript deleted before its watcher said so is read again, so that resume says it is gone)
      const info = await local.info(p.name);
      if (info.sourceDeleted || !info.file || existsSync(info.file)) return info;
      await library.recheck([info.file]);
      return local.info(p.name);
    });
    on(EngineFileHistoryRequest, (p) => local.fileHistory(p.query));
    on(EngineReadRequest, (p) => withTeam(p.team).read(p.docid, p.offset));
    on(EngineStoreRequest, (p) => local.store(p.input, p.now));
    on(EngineTagRequest, (p) => (p.remove ? local.untag(p.id, p.tags) : local.tag(p.id, p.tags)));
    on(EngineUserTagsRequest, () => local.userTags());
    on(EnginePreferencesRequest, (p) => local.preferences(p.project));
    on(EngineUpdatePreferencesRequest, (p) => local.updatePreferences(p.changes));
    connection.listen();
  };

  // (a socket that answers is another engine's: it serves, and this one, its load stopped, lets go of the folder)
  const listening = await listenAlone(server, paths.socket).catch((err: unknown) => {
    logger.error(`cannot listen on ${paths.socket}: ${errorMessage(err)}`);
    return false;
  });
  served = listening;
  if (!listening) {
    windows.loading.abort();
    await stop('another engine answers on its socket');
    process.exit(0);
  }
  if (process.platform !== 'win32') chmodSync(paths.socket, 0o600);
  const idle = setInterval(
    () => {
      // (a stop under way closed the server, which removes its socket itself: that stop finishes in order)
      if (stopping) return;
      // its socket (or the whole data folder) removed: nothing can reach it, and nothing of it is to be written there
      if (process.platform !== 'win32' && !existsSync(paths.socket)) {
        logger.info('engine stops: its socket was removed');
        process.exit(0);
      }
      if (!connections.size && Date.now() - lastActivity >= idleMs) void stop(`idle for ${Math.round(idleMs / 1000)} s`).finally(() => process.exit(0));
    },
    Math.min(idleMs, 5_000),
  );
  idle.unref();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void stop(signal).finally(() => process.exit(0)));
  await new Promise<void>((resolve) => server.once('close', resolve));
  await stopping;
}
