/**
 * The data folder holds every conversation, masked: only its user may read it. Every path that creates a folder or a
 * file in it asks for owner-only modes (0700 folders, 0600 files) itself, so the umask does not decide; a folder that an
 * earlier release (or a user's umask) left readable by others is tightened, whole, the first time a process opens it,
 * and the log says so.
 */
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.js';

export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;
/** `writeFile`'s and `open`'s options for a file only its user may read. */
export const PRIVATE = { mode: PRIVATE_FILE } as const;

const POSIX = process.platform !== 'win32';

/** Makes `dir` (and any missing parents below an existing folder) a folder only its user may enter. */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
}

/** Data folders this process has already looked at: each is tightened once. */
const checked = new Set<string>();

/**
 * Creates the data folder owner-only, or, when it exists and others may read it, takes their access away from it and
 * from everything in it (links are not followed). Answers how many entries were tightened.
 */
export async function privateDataFolder(dataDir: string, logger: Logger): Promise<number> {
  await makePrivateDir(dataDir);
  if (!POSIX || checked.has(dataDir)) return 0;
  checked.add(dataDir);
  const top = await lstat(dataDir);
  if (process.getuid && top.uid !== process.getuid()) return 0; // not ours to change; the engine refuses it elsewhere
  if ((top.mode & 0o077) === 0) return 0; // nobody else can enter it, whatever its contents' modes
  let changed = 0;
  const tighten = async (path: string, isDir: boolean, mode: number): Promise<void> => {
    if ((mode & 0o077) === 0) return;
    await chmod(path, isDir ? PRIVATE_DIR : PRIVATE_FILE).catch(() => undefined);
    changed++;
  };
  const walk = async (dir: string, mode: number): Promise<void> => {
    await tighten(dir, true, mode);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      const info = await lstat(path).catch(() => undefined);
      if (!info) continue;
      if (info.isDirectory()) await walk(path, info.mode);
      else if (info.isFile()) await tighten(path, false, info.mode);
    }
  };
  await walk(dataDir, top.mode);
  logger.info(`${dataDir}: the data folder was readable by other users; made owner-only (${changed} folders and files, 0700/0600)`);
  return changed;
}
