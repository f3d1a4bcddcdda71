/** A transcript file's state on disk: what tells a snapshot's manifest whether the file changed since. */
import { stat } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import type { Logger } from '../log.js';
import { sourceById, type SourceRoot } from './sources/registry.js';
import type { SourceAdapter } from './sources/types.js';
import { walkFiles } from './walk.js';

export interface FileState {
  file: string;
  size: number;
  mtimeMs: number;
  /** Inode (file identity): a file replaced by another of the same size and time is still read again. */
  ino: number;
}

/** Stats files a batch at a time; files that vanished since they were listed are left out. */
export async function statFiles(files: string[], batch = 64): Promise<FileState[]> {
  const out: FileState[] = [];
  for (let i = 0; i < files.length; i += batch) {
    const infos = await Promise.all(
      files.slice(i, i + batch).map((f) =>
        stat(f).then(
          (s) => ({ file: f, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino }),
          () => undefined,
        ),
      ),
    );
    for (const info of infos) if (info) out.push(info);
  }
  return out;
}

/**
 * A load commits (fix-ups, archive, index: what is committed becomes searchable, and its parsed turns are let go) after
 * about this many files, or this many bytes, where the folder changes...
 */
const COMMIT_MIN = 50;
const COMMIT_MIN_BYTES = 64 * 1024 * 1024;
/**
 * ...and after this many files or bytes wherever it is: a commit holds its files' parsed sessions in memory until it
 * is done, so a folder of thousands of transcripts (one Claude Code project) must not be one commit. Cross-file
 * fix-ups that span commits carry what they need from one to the next (SourceContext.carry).
 */
const COMMIT_MAX = 400;
export const COMMIT_MAX_BYTES = 96 * 1024 * 1024;

/**
 * Splits a root's files (in walk order) into the groups a load reads and commits together: groups end where the
 * folder changes once they are big enough (files of one folder, such as a Copilot Chat `.json` beside the
 * `.jsonl` that replaced it, stay together), and at COMMIT_MAX files or `maxBytes` in any case, so memory
 * stays bounded whatever the history's shape and a long first load is searchable part by part.
 */
export function* commitBatches(root: string, files: FileState[], maxBytes = COMMIT_MAX_BYTES): Generator<FileState[]> {
  const folder = (f: FileState): string => dirname(relative(root, f.file));
  let start = 0;
  let bytes = 0;
  for (let i = 1; i <= files.length; i++) {
    const size = i - start;
    bytes += files[i - 1].size;
    const boundary = i === files.length || folder(files[i]) !== folder(files[i - 1]);
    const next = i < files.length ? files[i].size : 0;
    if (i === files.length || ((size >= COMMIT_MIN || bytes >= COMMIT_MIN_BYTES) && boundary) || size >= COMMIT_MAX || bytes + next > maxBytes) {
      yield files.slice(start, i);
      start = i;
      bytes = 0;
    }
  }
}

/**
 * Of files whose archive entry's state (size, mtime) was recorded, those whose entry is now missing or different:
 * damaged on disk, or rewritten by another process since the snapshot was written.
 */
export async function changedEntries<T extends { file: string; entry?: [number, number] }>(
  known: T[],
  entryPath: (file: string) => string,
  batch = 64,
): Promise<T[]> {
  const recorded = known.filter((k) => k.entry);
  const out: T[] = [];
  for (let i = 0; i < recorded.length; i += batch) {
    const infos = await Promise.all(recorded.slice(i, i + batch).map((k) => stat(entryPath(k.file)).catch(() => undefined)));
    infos.forEach((info, j) => {
      const k = recorded[i + j];
      if (!info || info.size !== k.entry![0] || info.mtimeMs !== k.entry![1]) out.push(k);
    });
  }
  return out;
}

/** Every transcript file `accepts` takes under the roots, with its state on disk, and the set of them all. */
export async function scanRoots(
  roots: readonly SourceRoot[],
  logger: Logger,
  accepts: (adapter: SourceAdapter, file: string, root: string) => boolean,
): Promise<{ plan: { root: SourceRoot; files: FileState[] }[]; seen: Set<string> }> {
  const plan: { root: SourceRoot; files: FileState[] }[] = [];
  const seen = new Set<string>();
  // (a copy: a library's roots may change while they are walked, a window's folder added or dropped)
  for (const root of [...roots]) {
    const adapter = sourceById(root.source)!;
    const files = await statFiles(await walkFiles(root.path, { logger, accept: (f) => accepts(adapter, f, root.path) }));
    for (const f of files) seen.add(f.file);
    plan.push({ root, files });
  }
  return { plan, seen };
}
