/** A transcript file's state on disk: what tells a snapshot's manifest whether the file changed since. */
import { statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import type { Logger } from '../log.js';
import { sourceById, type SourceRoot } from './sources/registry.js';
import { WORKSPACE_SOURCES } from './sources/default-roots.js';
import { walkFiles, type ListedFolder } from './walk.js';
import type { TranscriptTest } from './exclude.js';

export interface FileState {
  file: string;
  size: number;
  mtimeMs: number;
  /** Inode (file identity): a file replaced by another of the same size and time is still read again. */
  ino: number;
}

/** Files stated in this thread at a time; a chunk slower than this (ms) sends the rest through the thread pool. */
const SYNC_CHUNK = 256;
const SLOW_CHUNK_MS = 20;
const ASYNC_BATCH = 64;

/**
 * Stats many files: a chunk at a time in this thread while the disk answers at once (a stat of a file the system has
 * cached takes microseconds here, where one through the thread pool costs its round trip: 20,000 of them, a warm start's
 * walk and archive check at 10,000 sessions, took 0.5 s), yielding between chunks so answers go on; once a chunk is
 * slow (a network drive), the rest a batch at a time through the thread pool. Each file's stat is given to `take` as it
 * comes; a file that cannot be stated is undefined.
 */
export async function statMany<T>(paths: readonly string[], take: (info: Stats, i: number) => T): Promise<(T | undefined)[]> {
  const out: (T | undefined)[] = [];
  const taken = (info: Stats | undefined, i: number): T | undefined => (info ? take(info, i) : undefined);
  let i = 0;
  while (i < paths.length) {
    const started = performance.now();
    for (const end = Math.min(paths.length, i + SYNC_CHUNK); i < end; i++) out.push(taken(statNow(paths[i]), i));
    if (performance.now() - started > SLOW_CHUNK_MS) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (; i < paths.length; i += ASYNC_BATCH) {
    const batch = paths.slice(i, i + ASYNC_BATCH).map((p) => stat(p).catch(() => undefined));
    out.push(...(await Promise.all(batch)).map((info, k) => taken(info, i + k)));
  }
  return out;
}
function statNow(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // not readable (permissions, a folder in the way): as a file that vanished
  }
}

/** Stats files; files that vanished since they were listed are left out. */
export async function statFiles(files: string[]): Promise<FileState[]> {
  // (each stat is made a state at once: a node Stats, a dozen numbers, is let go young instead of moved with them all)
  const states = await statMany(files, (s, i): FileState => ({ file: files[i], size: s.size, mtimeMs: s.mtimeMs, ino: s.ino }));
  return states.filter((state) => state !== undefined);
}

/**
 * A load commits (fix-ups, archive, index: what is committed becomes searchable, and its parsed turns are let go) after
 * about this many files, or this many bytes, where the folder changes...
 */
const COMMIT_MIN = 50;
const COMMIT_MIN_BYTES = 24 * 1024 * 1024;
/**
 * ...and after this many files or bytes wherever it is: a commit holds its files' parsed sessions in memory until it
 * is done, so a folder of thousands of transcripts (one Claude Code project) must not be one commit. Cross-file
 * fix-ups that span commits carry what they need from one to the next (SourceContext.carry).
 */
const COMMIT_MAX = 400;
export const COMMIT_MAX_BYTES = 32 * 1024 * 1024;

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
export async function changedEntries<T extends { file: string; entry?: [number, number] }>(known: T[], entryPath: (file: string) => string): Promise<T[]> {
  const recorded = known.filter((k) => k.entry);
  const same = await statMany(
    recorded.map((k) => entryPath(k.file)),
    (info, i) => info.size === recorded[i].entry![0] && info.mtimeMs === recorded[i].entry![1],
  );
  return recorded.filter((_, i) => same[i] !== true);
}

/** Every transcript file `accepts` takes under the roots, with its state on disk, and the set of them all. */
export async function scanRoots(roots: readonly SourceRoot[], logger: Logger, accepts: TranscriptTest, signal?: AbortSignal): Promise<Scan> {
  return scanOf(await scanPlan(roots, logger, accepts, signal));
}

/**
 * How far a workspace folder is walked for SpecStory and Aider histories (they sit in a project's top folders): a
 * command run in a huge folder answers instead of walking it all, and says so.
 */
export const WORKSPACE_WALK = {
  maxDepth: 8,
  maxFolders: 10_000,
  cutMessage:
    'this folder is too large to look for SpecStory and Aider histories in; run the command in a project folder, or name the folder with --root specstory=PATH --root aider=PATH',
} as const;

/** The walk's bounds for `roots` of one folder: a workspace's (SpecStory, Aider) are bounded. */
export function walkBounds(roots: readonly SourceRoot[]): Partial<typeof WORKSPACE_WALK> {
  return roots.every((r) => WORKSPACE_SOURCES.has(r.source)) ? WORKSPACE_WALK : {};
}

/** Each root's files that `accepts` takes, with their state on disk (`scanRoots` without the set of them all). */
export async function scanPlan(roots: readonly SourceRoot[], logger: Logger, accepts: TranscriptTest, signal?: AbortSignal): Promise<Scan['plan']> {
  const plan: Scan['plan'] = [];
  // roots of one folder (a workspace's SpecStory and Aider histories) are walked once, their files told apart after
  // (a copy: a library's roots may change while they are walked, a window's folder added or dropped)
  const byFolder = new Map<string, SourceRoot[]>();
  for (const root of [...roots]) byFolder.set(root.path, [...(byFolder.get(root.path) ?? []), root]);
  for (const [folder, group] of byFolder) {
    const adapters = group.map((root) => sourceById(root.source)!);
    const accepted = (file: string, i: number, listed?: ListedFolder): boolean => accepts(adapters[i], file, folder, listed);
    const walk = { logger, signal, ...walkBounds(group), accept: (f: string, listed?: ListedFolder) => group.some((_, i) => accepted(f, i, listed)) };
    const files = await statFiles(await walkFiles(folder, walk));
    for (const [i, root] of group.entries()) plan.push({ root, files: group.length === 1 ? files : files.filter((f) => accepted(f.file, i)) });
  }
  return plan;
}

/** What a walk of the roots found: each root's files with their state, and the set of them all. */
export interface Scan {
  plan: { root: SourceRoot; files: FileState[] }[];
  seen: FileSet;
  /** By file, its archive entry's name, where the walk named them (scan-aside.ts). */
  entryName?: (file: string) => string | undefined;
  /** Then, once the walk has stated them, each file's entry name and state (none: no entry); undefined where it could not. */
  entries?: Promise<EntryChecks | undefined>;
  /** The archive's entries, as the walk listed them, that none of its files names (undefined: not listed). */
  unnamed?: Promise<string[] | undefined>;
}

/** The archive entries a walk stated, by transcript file (undefined: a file it did not state). */
export interface EntryChecks {
  get(file: string): EntryCheck | undefined;
}

/** A transcript's archive entry as a walk found it: its name, and its size and modification time when it exists. */
export interface EntryCheck {
  name: string;
  state?: [size: number, mtimeMs: number];
}

/** The files a scan found: a set, or a map's keys (a walk's reply hashes each file once, for both). */
export type FileSet = Pick<ReadonlySet<string>, 'has' | 'size'> & Iterable<string>;

/** A scan of `plan` (the set of its files added). */
export function scanOf(plan: Scan['plan']): Scan {
  const seen = new Set<string>();
  for (const { files } of plan) for (const f of files) seen.add(f.file);
  return { plan, seen };
}
