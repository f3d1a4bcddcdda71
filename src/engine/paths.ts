/**
 * Where the engine of a data folder listens, and how a client tells that it reads what the client would. The socket
 * is in a folder only its user may enter (0700, created so and checked), the socket itself 0600: no other user's
 * process can connect. On Windows a named pipe derived from the data folder (its default access: the user and
 * administrators).
 */
import { createHash } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { splitRoots, type SourceRoot } from '../core/ingest/sources/default-roots.js';
import { DEFAULT_MAX_FILE_BYTES } from '../core/library/options.js';

/** A Unix socket's path must fit in sockaddr_un (104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH = 100;

export interface EnginePaths {
  /** The folder only the user may enter, holding the socket. */
  dir: string;
  socket: string;
  /** The pid of the engine running (or starting) for this data folder. */
  pidFile: string;
  log: string;
}

export function enginePaths(dataDir: string): EnginePaths {
  const data = resolve(dataDir);
  const hash = createHash('sha256').update(data).digest('hex').slice(0, 16);
  const dir = runtimeFolder(data, hash);
  let socket = join(dir, 'sock');
  if (process.platform === 'win32') socket = `\\\\.\\pipe\\session-search-${hash}`;
  // a data folder with a long path: the socket goes to a private folder of the temp dir, named after the data folder
  else if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) socket = join(tmpdir(), `session-search-${process.getuid?.() ?? 0}`, `${hash}.sock`);
  return { dir, socket, pidFile: join(dir, 'pid'), log: join(dir, 'engine.log') };
}

/**
 * The engine's own folder: `engine/` in the data folder, or, where the data folder cannot be written (a read-only file
 * system, a folder the user may not write), a private folder of the temp dir named after it, so that an engine still
 * runs and keeps the index in memory for every command (each would otherwise index everything again). Every process
 * works this out the same way, from the disk as it is: nothing is created here.
 */
function runtimeFolder(data: string, hash: string): string {
  const own = join(data, 'engine');
  const elsewhere = join(tmpdir(), `session-search-${process.getuid?.() ?? 0}`, hash);
  // (the nearest folder that exists decides: the engine's own, the data folder, or the folder it would be made in)
  for (let at = own; ; at = dirname(at)) {
    if (existsSync(at)) return writable(at) ? own : elsewhere;
    if (dirname(at) === at) return own;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes `dir` a folder only this user may enter, or says why it is not one (another owner, a link): the engine does not
 * listen where someone else could reach it.
 */
export function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const info = lstatSync(dir);
  if (!info.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (process.getuid && info.uid !== process.getuid()) throw new Error(`${dir} belongs to another user`);
  if ((info.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** Whether `dir` already is a folder only this user may enter (as `privateFolder` leaves it), without making or mending it. */
export function isPrivateFolder(dir: string): boolean {
  const info = lstatSync(dir, { throwIfNoEntry: false });
  if (!info?.isDirectory()) return false;
  return process.platform === 'win32' || ((info.mode & 0o077) === 0 && (!process.getuid || info.uid === process.getuid()));
}

/** How an engine reads: what its clients must agree on to share it. */
export interface ReadConfig {
  /** The machine's roots (splitRoots): a workspace's are registered by each client, not compared. */
  roots: readonly SourceRoot[];
  archive: boolean;
  exclude?: readonly string[];
  maxFileBytes?: number;
}

/** What an engine reads, as one string: clients reading the same compare equal. */
export function engineConfig(config: ReadConfig): string {
  const roots = [...new Set(splitRoots(config.roots).machine.map((r) => `${r.source}=${resolve(r.path)}`))].sort();
  const exclude = [...new Set(config.exclude ?? [])].sort();
  return JSON.stringify({ roots, archive: config.archive, exclude, maxFileBytes: config.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES });
}
