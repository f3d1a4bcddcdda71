/**
 * Beside a snapshot, the state its writer left it in (size, modification time, inode), written once it was in place. A
 * snapshot found as it was left is not read whole at a start to check its arrays (hundreds of MB at 10,000 sessions):
 * every block is still checked as it is read, and damage found then rebuilds the index. One changed since (rewritten,
 * cut, copied back) is checked whole before the load goes on, as every snapshot was before.
 */
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { PRIVATE } from './private.js';

const writtenPath = (path: string): string => `${path}.written`;
const fileState = (info: { size: number; mtimeMs: number; ino: number }): string => `${info.size} ${info.mtimeMs} ${info.ino}`;

/** Records the state of the snapshot just put in place at `path`. */
export async function recordWritten(path: string): Promise<void> {
  try {
    const info = await stat(path);
    await writeFile(`${writtenPath(path)}.tmp`, fileState(info), PRIVATE);
    await rename(`${writtenPath(path)}.tmp`, writtenPath(path));
  } catch {
    // without it the next start checks the snapshot whole
    await rm(writtenPath(path), { force: true }).catch(() => undefined);
  }
}

/** Whether the snapshot at `path`, now in state `info`, is as its writer left it. */
export async function asWritten(path: string, info: { size: number; mtimeMs: number; ino: number }): Promise<boolean> {
  return (await readFile(writtenPath(path), 'utf8').catch(() => undefined)) === fileState(info);
}

/** Removes a snapshot and the record of its writing. */
export async function removeSnapshot(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(writtenPath(path), { force: true });
}
