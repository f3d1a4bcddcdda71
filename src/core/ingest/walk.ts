/**
 * Lists regular files under a root without leaving it: symlinks are followed only when their target stays inside the
 * root, each folder is visited once by its real path (a link back up, `self -> .` or `src/root -> ../..`, adds
 * nothing), virtual file systems (/proc, /sys, /dev and the like) are never entered, and FIFOs, sockets and devices are
 * never opened. A walk may be bounded (a workspace folder's: so many folders, so deep) and stopped.
 */
import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { relative, isAbsolute, sep } from 'node:path';
import type { Logger } from '../log.js';

export function isInside(root: string, target: string): boolean {
  // the common case without path arithmetic (a restored library asks this of every file it knows)
  if (target.length > root.length && target.startsWith(root) && (root.endsWith(sep) || target[root.length] === sep) && !hasDotSegment(target)) return true;
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function hasDotSegment(path: string): boolean {
  return path.includes(`${sep}.${sep}`) || path.includes(`${sep}..`) || path.endsWith(`${sep}.`);
}

/**
 * The one list of folders never walked or watched: they never hold transcripts and can be huge (a workspace root is a
 * root for SpecStory and Aider).
 */
export const NEVER_WALKED = new Set(['node_modules', '.git', '.venv', 'venv', '__pycache__', '.tox', '.mypy_cache', '.next', '.cache']);

/**
 * The names a walk has just listed in a file's folder, asked instead of the disk (whether a sibling exists: a
 * CodeArchitect summary is read only where its session has no full.md). A symbolic link is asked of the disk, which
 * says whether its target exists.
 */
export interface ListedFolder {
  has(name: string): boolean;
}

export interface WalkOptions {
  logger: Logger;
  accept: (file: string, folder?: ListedFolder) => boolean;
  maxDepth?: number;
  /** At most this many folders are listed; past it the walk stops and says why with `cutMessage`. */
  maxFolders?: number;
  /** What the log says when `maxFolders` cut the walk (after the root's path). */
  cutMessage?: string;
  /** Stops the walk (its client went): what was found so far is answered. */
  signal?: AbortSignal;
  /** Folders listed through the thread pool from the start (as a slow disk makes them be); for tests. */
  pooled?: boolean;
}

export async function walkFiles(root: string, options: WalkOptions): Promise<string[]> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return [];
  }
  // a root that is one file (an imported export) is read alone
  if ((await stat(realRoot).catch(() => undefined))?.isFile()) return options.accept(realRoot) ? [realRoot] : [];
  if (isVirtual(realRoot)) {
    options.logger.warn(`${root}: a virtual file system (${realRoot}), never walked`);
    return [];
  }
  const maxDepth = options.maxDepth ?? 12;
  const maxFolders = options.maxFolders ?? Infinity;
  const list = folderLister(options.pooled === true);
  const visited = new Set<string>([realRoot]);
  let folders = 0;
  let cut = false;
  const visit = async (dir: string, depth: number): Promise<string[]> => {
    if (options.signal?.aborted) return [];
    if (++folders > maxFolders) {
      cut = true;
      return [];
    }
    let entries;
    try {
      entries = await list(dir);
    } catch (err) {
      options.logger.warn(`${dir}: cannot list (${(err as NodeJS.ErrnoException).code ?? 'error'}), skipped`);
      return [];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const folder = listedFolder(dir, entries);
    const found: (string | Promise<string[]>)[] = [];
    for (const entry of entries) {
      const full = childPath(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let path = full;
      if (entry.isSymbolicLink()) {
        try {
          path = await realpath(full);
          if (!isInside(realRoot, path)) {
            options.logger.warn(`${full}: symlink points outside ${root}, skipped`);
            continue;
          }
          const info = await stat(path);
          isDir = info.isDirectory();
          isFile = info.isFile();
        } catch {
          continue;
        }
      }
      if (isDir) {
        // (a folder reached again through a link, or a mount of a virtual file system inside the root: not entered)
        if (depth >= maxDepth || NEVER_WALKED.has(entry.name) || visited.has(path) || isVirtual(path)) continue;
        visited.add(path);
        found.push(visit(path, depth + 1));
      } else if (isFile && options.accept(full, folder)) {
        // (a link to a file is listed by its own path: a copy someone made, such as a session folder's full.md, not a loop)
        found.push(full);
      } else if (!isDir && !isFile && options.accept(full, folder)) options.logger.warn(`${full}: not a regular file (a FIFO, socket or device), never opened`);
    }
    const files: string[] = [];
    for (const each of found) {
      if (typeof each === 'string') files.push(each);
      else for (const file of await each) files.push(file);
    }
    return files;
  };
  const info = await lstat(realRoot).catch(() => undefined);
  if (!info?.isDirectory()) return [];
  const files = await visit(realRoot, 0);
  if (cut) options.logger.warn(`${root}: the walk stopped after ${maxFolders} folders; ${options.cutMessage ?? 'the rest is not read'}`);
  return files;
}

/** File system types that hold no files of anyone's: kernel and device views, some of them endless (/proc's links). */
const VIRTUAL_TYPES = new Set([
  'proc',
  'sysfs',
  'devtmpfs',
  'devpts',
  'cgroup',
  'cgroup2',
  'debugfs',
  'tracefs',
  'securityfs',
  'bpf',
  'fusectl',
  'configfs',
  'pstore',
  'hugetlbfs',
  'mqueue',
  'binfmt_misc',
  'autofs',
  'efivarfs',
  'rpc_pipefs',
  'nsfs',
  'selinuxfs',
]);
const VIRTUAL_PREFIXES = ['/proc', '/sys', '/dev'];
let virtualMounts: Set<string> | undefined;

/** The mount points of virtual file systems (Linux: /proc/self/mountinfo, read once), and /proc, /sys and /dev. */
function virtualMountPoints(): Set<string> {
  if (virtualMounts) return virtualMounts;
  virtualMounts = new Set(process.platform === 'win32' ? [] : VIRTUAL_PREFIXES);
  if (process.platform !== 'linux') return virtualMounts;
  try {
    for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const [mount, rest] = line.split(' - ');
      const point = mount?.split(' ')[4];
      if (point && rest && VIRTUAL_TYPES.has(rest.split(' ')[0]))
        virtualMounts.add(point.replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
    }
  } catch {
    // (no /proc: the fixed prefixes stand)
  }
  return virtualMounts;
}

/** Whether `path` (a real path) is in a virtual file system. */
export function isVirtual(path: string): boolean {
  if (process.platform === 'win32') return false;
  for (const prefix of VIRTUAL_PREFIXES) if (path === prefix || path.startsWith(`${prefix}/`)) return true;
  return virtualMountPoints().has(path);
}

/** A folder's listing as a ListedFolder (its names put in a map the first time one is asked for). */
function listedFolder(dir: string, entries: readonly Dirent[]): ListedFolder {
  let links: Map<string, boolean> | undefined;
  return {
    has(name) {
      links ??= new Map(entries.map((e) => [e.name, e.isSymbolicLink()]));
      const link = links.get(name);
      return link === undefined ? false : !link || existsSync(childPath(dir, name));
    },
  };
}

/**
 * `join(dir, name)` for a folder the walk made (a real path, or one joined from it: normal already) and a name it listed
 * (never `.`, `..` or one holding a separator): without normalizing the path again, about 30 ms of the walking
 * thread's half second at a warm start of 10,000 sessions (12,000 names).
 */
export function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
}

/** How many folders a walk lists at once through the thread pool. */
const WALK_CONCURRENCY = 16;
/** A folder listed in this thread slower than this (ms) sends the rest of the walk through the thread pool. */
const SLOW_FOLDER_MS = 20;
/** Listing in this thread yields to answers and timers after this long (ms). */
const YIELD_MS = 10;

/**
 * Lists folders in this thread while the disk answers at once (a folder the system has cached: microseconds, where a
 * listing through the thread pool costs its round trip; a history of 10,000 sessions is about 2,000 folders, and a warm
 * start walks them all), yielding every few milliseconds so that answers go on. Once a folder is slow to list (a
 * network drive), the rest are listed through the thread pool, several at a time. The files come out in the same order
 * either way: one folder after the other.
 */
function folderLister(pooled: boolean): (dir: string) => Promise<Dirent[]> {
  const pool = limited(WALK_CONCURRENCY);
  let since = performance.now();
  return async (dir) => {
    if (pooled) return pool(() => readdir(dir, { withFileTypes: true }));
    if (performance.now() - since > YIELD_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
    const started = performance.now();
    const entries = readdirSync(dir, { withFileTypes: true });
    if (performance.now() - started > SLOW_FOLDER_MS) pooled = true;
    return entries;
  };
}

/** Runs at most `n` of the tasks given at a time (only while each runs: a task may start others and wait for them). */
function limited(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
