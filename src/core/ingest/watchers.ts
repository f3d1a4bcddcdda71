/**
 * What watches a root for LiveUpdates (live.ts): one watch per folder on Linux (folder-watcher.ts), chokidar elsewhere.
 * Tests give their own factory to simulate a watcher that fails or starts late.
 */
import { basename } from 'node:path';
import { watch as chokidarWatch } from 'chokidar';
import type { SourceRoot } from './sources/registry.js';
import { NEVER_WALKED } from './walk.js';
import { watchFolders } from './folder-watcher.js';

/** The part of a file watcher we use; tests pass their own to simulate failures. */
export interface Watcher {
  on(event: 'add' | 'change' | 'unlink', listener: (path: string) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  /** How many system watches it holds, where it counts them (one watch per folder does). */
  readonly watches?: number;
  close(): Promise<void>;
}

/** `known`: the files the library holds from a folder (what a folder that went away took with it). */
export type WatchFactory = (root: SourceRoot, accepts: (path: string) => boolean, known: (folder: string) => string[]) => Watcher;

export const chokidarFactory: WatchFactory = (root, accepts) =>
  chokidarWatch(root.path, {
    ignoreInitial: true,
    followSymlinks: false,
    depth: 12,
    ignored: (path, stats) => (stats?.isFile() ? !accepts(path) : NEVER_WALKED.has(basename(path))),
  });

/** One watch per folder (folder-watcher.ts), where the system reports a watched folder's files' changes: Linux. */
export const foldersFactory: WatchFactory = (root, accepts, known) => watchFolders(root.path, { accepts, known });

/** The watchers used unless a test gives its own: one per folder on Linux, chokidar elsewhere. */
export const defaultWatchFactory: WatchFactory = process.platform === 'linux' ? foldersFactory : chokidarFactory;
