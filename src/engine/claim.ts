/**
 * One engine per data folder, when several start at once (two commands run together, a window and an agent): the pid
 * file decides which one serves, and the socket is only ever taken from an engine that is gone.
 */
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { running } from '../core/store/running.js';
import { canConnect } from './socket.js';

/**
 * Claims the data folder's engine pid file; false when a live engine holds it. The file appears whole (written aside,
 * then linked into place), so an engine reading it never sees a claim half-written: read as empty, such a claim was
 * once taken for a stale one and removed, and two engines served one data folder.
 */
export function claim(pidFile: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      placeWhole(pidFile, String(process.pid));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(pidFile, 'utf8').trim());
      if (pid && pid !== process.pid && running(pid)) return false;
      rmSync(pidFile, { force: true });
    }
  }
  return false;
}

/** Creates `path` holding `text`, or throws EEXIST. */
function placeWhole(path: string, text: string): void {
  const aside = `${path}.${process.pid}`;
  writeFileSync(aside, text, { mode: 0o600 });
  try {
    linkSync(aside, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw err;
    // a file system without hard links: created exclusively, as before (the window is a write of a few bytes)
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Whether the pid file names this process (what a stopping engine may remove is its own claim only). */
export function holdsClaim(pidFile: string): boolean {
  try {
    return Number(readFileSync(pidFile, 'utf8').trim()) === process.pid;
  } catch {
    return false;
  }
}

/**
 * Listens on the socket path. A socket file left there is taken over only when nothing answers on it (an engine that
 * crashed); one that answers belongs to an engine serving this folder: false, and this one does not serve.
 */
export async function listenAlone(server: Server, path: string): Promise<boolean> {
  const listen = (): Promise<NodeJS.ErrnoException | undefined> =>
    new Promise((resolve) => {
      const failed = (err: NodeJS.ErrnoException): void => resolve(err);
      server.once('error', failed);
      server.listen(path, () => {
        server.off('error', failed);
        resolve(undefined);
      });
    });
  for (let attempt = 0; attempt < 3; attempt++) {
    const err = await listen();
    if (!err) return true;
    if (err.code !== 'EADDRINUSE') throw err;
    // (a named pipe in use is always a live one's: it goes with its process)
    if (process.platform === 'win32' || (await canConnect(path))) return false;
    rmSync(path, { force: true });
  }
  throw new Error(`cannot listen on ${path}: its socket file keeps coming back`);
}
