/**
 * A client of the resident engine: connects to the data folder's engine, starting it when none runs (a detached
 * `session-search serve`), asks one of another version to hand over, and notices a crash (the next request starts it
 * again). Where no engine can serve (SESSION_SEARCH_ENGINE=off, a folder where no socket can be made, an engine that
 * reads other folders), it says why and the caller answers in process.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import type { Socket } from 'node:net';
import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import { errorMessage } from '../core/errors.js';
import { splitRoots, type SourceRoot } from '../core/ingest/sources/default-roots.js';
import { engineConfig, enginePaths, privateFolder } from './paths.js';
import { connectSocket, socketConnection } from './socket.js';
import { remoteEngine, sleep, type Connected, type RemoteEngine } from './remote.js';
import { running } from '../core/store/running.js';
import { withAllocatorEnv } from '../core/allocator.js';
import { ENGINE_BUILT } from '../version.js';
import { ENGINE_PROTOCOL, EngineAboutRequest, EngineJoinRequest, HandOverRequest, HelloRequest, type EngineAbout, type TeamRef } from './protocol.js';
import type { EmbedConfig } from '../core/embed/config.js';

export type { EngineLink, RemoteEngine } from './remote.js';

export interface EngineClientOptions {
  roots: SourceRoot[];
  dataDir: string;
  archive: boolean;
  exclude?: string[];
  maxFileBytes?: number;
  /** Keep the workspace roots (SpecStory, Aider) watched while connected: a window or an MCP server, not a command. */
  watchWorkspace?: boolean;
  /** A window's index server, relaying src/protocol.ts: told the engine's progress and changes. */
  window?: boolean;
  /** A window's team archive, for the requests of src/protocol.ts it relays. */
  windowTeam?: TeamRef & { projects: string[] };
  /** The team archive searched beside the local one (the engine opens it when first named). */
  teamDb?: string;
  machine?: string;
  version: string;
  /** The bundle that runs `serve` (dist/engine.cjs; dist/cli.js too); without it no engine is started. */
  entry: string | undefined;
  /** Answer search and list once the first load is complete (the CLI without --partial). */
  complete?: boolean;
  /** The user's own embedding model, when this client names one: the engine uses it from then on. */
  embed?: EmbedConfig;
  env?: NodeJS.ProcessEnv;
}

/** The engine's entry beside this bundle (dist/engine.cjs: engine/start.ts); undefined when running from source. */
export function engineEntry(): string | undefined {
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  const entry = join(here, 'engine.cjs');
  return existsSync(entry) && existsSync(join(here, 'serve.cjs')) ? entry : undefined;
}

/** How long a client waits for an engine it started to listen, and for one handing over to go. */
const START_MS = 20_000;

/** The version a process reports (SESSION_SEARCH_ENGINE_VERSION stands in for another build, to test a hand-over). */
export function productVersion(version: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.SESSION_SEARCH_ENGINE_VERSION?.trim() || version;
}

/** When this process's build was made (SESSION_SEARCH_ENGINE_BUILT stands in for another build's, in tests). */
export function productBuilt(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.SESSION_SEARCH_ENGINE_BUILT) || ENGINE_BUILT;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (let wait = 20; Date.now() < end; wait = Math.min(200, wait * 2)) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(wait);
  }
  return undefined;
}

/** Starts `session-search serve` for the data folder, detached: it outlives this client. */
function startEngine(options: EngineClientOptions, log: string): void {
  // a heap limit given to this process is the engine's too (the engine does the loading it would have done); the small
  // young generation of a relay (src/mcp/launch.ts) is not
  const heap = process.execArgv.filter((a) => /^--max-old-space-size/.test(a));
  // the machine's roots only: this client's workspace roots are registered once it is connected
  const roots = splitRoots(options.roots).machine;
  const args = [
    ...heap,
    options.entry!,
    'serve',
    '--data',
    options.dataDir,
    '--no-default-roots',
    ...roots.flatMap((r) => ['--root', `${r.source}=${r.path}`]),
  ];
  if (!options.archive) args.push('--no-archive');
  for (const glob of options.exclude ?? []) args.push('--exclude', glob);
  if (options.maxFileBytes !== undefined) args.push('--max-file-mb', String(options.maxFileBytes / 1048576));
  const out = openSync(log, 'a', 0o600);
  try {
    spawn(process.execPath, args, {
      detached: true,
      stdio: ['ignore', out, out],
      env: withAllocatorEnv(options.env ?? process.env),
      windowsHide: true,
    }).unref();
  } finally {
    closeSync(out);
  }
}

async function hello(socket: Socket, version: string): Promise<Connected> {
  const connection = socketConnection(socket);
  connection.listen();
  const closed = new Promise<never>((_, reject) => socket.once('close', () => reject(new Error('the engine closed the connection'))));
  closed.catch(() => undefined);
  // an engine that does not say hello within START_MS (stuck) is not used
  const stuck = sleep(START_MS, true).then(() => Promise.reject(new Error('the engine did not answer hello')));
  stuck.catch(() => undefined);
  const answer = await Promise.race([connection.sendRequest(HelloRequest, { version, protocol: ENGINE_PROTOCOL }), closed, stuck]);
  return { connection, socket, hello: answer, closed };
}

/**
 * The engine for these options, started if need be; or the reason answers come from this process instead.
 * Never throws: whatever goes wrong is a reason to answer in process.
 */
export async function openEngine(options: EngineClientOptions): Promise<{ engine: RemoteEngine } | { reason: string }> {
  const env = options.env ?? process.env;
  if (env.SESSION_SEARCH_ENGINE === 'off') return { reason: 'SESSION_SEARCH_ENGINE=off' };
  if (!options.entry || !existsSync(options.entry)) return { reason: 'no engine to start beside this program' };
  const paths = enginePaths(options.dataDir);
  const version = productVersion(options.version, env);
  const built = productBuilt(env);
  const config = engineConfig(options);
  const { workspace } = splitRoots(options.roots);
  try {
    privateFolder(paths.dir);
  } catch (err) {
    return { reason: `no socket can be made in the data folder (${errorMessage(err)})` };
  }
  const connectOnce = async (): Promise<Connected | { reason: string }> => {
    for (let attempt = 0; attempt < 3; attempt++) {
      let socket = await connectSocket(paths.socket);
      if (!socket) {
        startEngine(options, paths.log);
        socket = await waitFor(() => connectSocket(paths.socket, 1_000), START_MS);
        if (!socket) return { reason: `the engine did not start (see ${paths.log})` };
      }
      // an engine dying as it is reached (its listening socket closed just after this connection was queued) does not
      // answer hello: the next attempt finds nothing listening and starts one
      const connected = await hello(socket, version).catch(() => undefined);
      if (!connected) {
        socket.destroy();
        await sleep(100);
        continue;
      }
      // a newer build's engine is used as it is (same protocol), never evicted by an older client
      const newer = connected.hello.version !== version && connected.hello.built > built;
      if (newer && connected.hello.protocol !== ENGINE_PROTOCOL) {
        connected.connection.dispose();
        socket.destroy();
        return { reason: `a newer build's engine (${connected.hello.version}) serves this data folder, with another protocol` };
      }
      if ((connected.hello.version === version || newer) && connected.hello.protocol === ENGINE_PROTOCOL) {
        if (connected.hello.config !== config) {
          connected.connection.dispose();
          socket.destroy();
          return { reason: 'the engine of this data folder reads other folders' };
        }
        // this client's workspace histories: a command's are read before its answer (the engine makes its requests wait
        // for its join: they are sent at once); a window's or an MCP server's become searchable as they are read (and are
        // watched while it stays connected), not holding its first answer. A window or an MCP server always joins:
        // `engine status` tells its clients apart by how they joined.
        if (workspace.length || options.window || options.watchWorkspace || options.embed) {
          const watch = options.watchWorkspace === true;
          const joined = connected.connection.sendRequest(EngineJoinRequest, {
            roots: workspace,
            watch,
            window: options.window,
            team: options.windowTeam,
            embed: options.embed,
          });
          joined.catch(() => undefined);
        }
        return connected;
      }
      // an older build's engine (or one as old): it hands over (its snapshot written, its lock released), then this
      // client starts its own
      await askToGo(connected, socket);
    }
    return { reason: 'the engine of this data folder did not hand over' };
  };
  try {
    const first = await connectOnce();
    if ('reason' in first) return first;
    const team = options.teamDb ? { url: options.teamDb, machine: options.machine } : undefined;
    return { engine: remoteEngine(first, connectOnce, { complete: options.complete, team }) };
  } catch (err) {
    return { reason: `the engine did not answer (${errorMessage(err)})` };
  }
}

/**
 * Asks the engine of a data folder, if one runs, to let go of it (its snapshot written, its lock released) and waits
 * until it has: for commands that change what it holds from outside it (an archive purged, exports imported).
 */
export async function handOver(dataDir: string): Promise<void> {
  const paths = enginePaths(dataDir);
  const socket = await connectSocket(paths.socket);
  if (!socket) return;
  await askToGo(await hello(socket, '').catch(() => undefined), socket);
}

/**
 * How the data folder's engine is, if one runs (none is started); asking does not keep it up. An engine of an earlier
 * build that cannot say more gives its pid and version only.
 */
export async function aboutEngine(dataDir: string): Promise<EngineAbout | Pick<EngineAbout, 'pid' | 'version' | 'dataDir'> | undefined> {
  const socket = await connectSocket(enginePaths(dataDir).socket);
  if (!socket) return undefined;
  const connected = await hello(socket, '').catch(() => undefined);
  try {
    if (!connected) return undefined; // (going away as it was reached)
    return await Promise.race([connected.connection.sendRequest(EngineAboutRequest), connected.closed]).catch((err: unknown) => {
      if (err instanceof ResponseError && err.code === ErrorCodes.MethodNotFound)
        return { pid: connected.hello.pid, version: connected.hello.version, dataDir };
      throw err;
    });
  } finally {
    connected?.connection.dispose();
    socket.destroy();
  }
}

/** Sends an engine the hand-over and waits until its process is gone (its snapshot written, its lock released). */
async function askToGo(connected: Connected | undefined, socket: Socket): Promise<void> {
  if (connected) {
    // (the engine may close before its answer arrives: the socket closing is the answer too)
    await Promise.race([
      connected.connection.sendRequest(HandOverRequest).catch(() => undefined),
      connected.closed.catch(() => undefined),
      sleep(START_MS, true),
    ]);
    connected.connection.dispose();
  }
  socket.destroy();
  const pid = connected?.hello.pid;
  if (pid) await waitFor(async () => (running(pid) ? undefined : true), START_MS);
}
