/**
 * Keeps a library fresh while it runs: chokidar watches every root, and a file that is added, appended to, rewritten,
 * renamed or deleted is read again (debounced, one file at a time). When the system cannot watch (too many files for
 * inotify: ENOSPC/EMFILE, or a network drive) it warns once and falls back to rescanning the roots periodically.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { watch as chokidarWatch } from 'chokidar';
import type { SessionLibrary } from './library.js';
import type { Logger } from './log.js';
import { sourceById, type SourceRoot } from './sources/registry.js';
import { walkFiles } from './walk.js';

/** The part of a file watcher we use; tests pass their own to simulate failures. */
export interface Watcher {
  on(event: 'add' | 'change' | 'unlink', listener: (path: string) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  close(): Promise<void>;
}

export type WatchFactory = (root: SourceRoot, accepts: (path: string) => boolean) => Watcher;

export interface LiveOptions {
  logger: Logger;
  /** Quiet time after the last event for a file before it is read again. */
  debounceMs?: number;
  /** Rescan interval when watching is impossible. */
  pollMs?: number;
  watchFactory?: WatchFactory;
  /** Called after changed files were read again. */
  onChange?: (files: string[]) => void;
}

const SKIP = new Set(['node_modules', '.git']);
const VERIFY_AFTER_MS = 120;

async function signature(file: string): Promise<string> {
  const info = await stat(file).catch(() => undefined);
  return info ? `${info.size}:${info.mtimeMs}:${info.ino}` : 'missing';
}
const WATCH_LIMIT_CODES = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);

export const chokidarFactory: WatchFactory = (root, accepts) =>
  chokidarWatch(root.path, {
    ignoreInitial: true,
    followSymlinks: false,
    depth: 12,
    ignored: (path, stats) => (stats?.isFile() ? !accepts(path) : SKIP.has(basename(path))),
  });

export class LiveUpdates {
  private readonly watchers: Watcher[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly verifiers = new Set<NodeJS.Timeout>();
  private queue: Promise<void> = Promise.resolve();
  private poller: NodeJS.Timeout | undefined;
  private readonly known = new Map<string, string>();
  private warned = false;
  private closed = false;

  constructor(
    private readonly library: SessionLibrary,
    private readonly options: LiveOptions,
  ) {}

  /** Starts watching every root the library read; resolves once the watchers are ready. */
  async start(): Promise<void> {
    const factory = this.options.watchFactory ?? chokidarFactory;
    await Promise.all(
      this.library.roots.map(
        (root) =>
          new Promise<void>((resolve) => {
            const adapter = sourceById(root.source)!;
            let watcher: Watcher;
            try {
              watcher = factory(root, (path) => this.library.accepts(adapter, path, root.path));
            } catch (err) {
              this.fallBack(err);
              resolve();
              return;
            }
            this.watchers.push(watcher);
            for (const event of ['add', 'change', 'unlink'] as const) watcher.on(event, (path: string) => this.schedule(path));
            watcher.on('error', (err: unknown) => {
              this.fallBack(err);
              resolve();
            });
            watcher.on('ready', () => resolve());
          }),
      ),
    );
  }

  private schedule(file: string): void {
    if (this.closed) return;
    clearTimeout(this.timers.get(file));
    this.timers.set(
      file,
      setTimeout(() => {
        this.timers.delete(file);
        this.queue = this.queue
          .then(async () => {
            const read = await signature(file);
            await this.library.reloadFile(file);
            this.options.onChange?.([file]);
            this.verifyLater(file, read);
          })
          .catch((err: unknown) => this.options.logger.error(`${file}: update failed (${err instanceof Error ? err.stack ?? err.message : String(err)})`));
      }, this.options.debounceMs ?? 50),
    );
  }

  /**
   * chokidar drops a second change event that comes within 50 ms of the first, and agents write several lines in a
   * burst: a moment after each read, the file is checked once more and read again if it moved on.
   */
  private verifyLater(file: string, read: string): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.verifiers.delete(timer);
      void signature(file).then((now) => {
        if (now !== read) this.schedule(file);
      });
    }, VERIFY_AFTER_MS);
    this.verifiers.add(timer);
  }

  /** Watching failed: say so once, then rescan every root on a timer. */
  private fallBack(err: unknown): void {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (!this.warned) {
      this.warned = true;
      const why = code && WATCH_LIMIT_CODES.has(code) ? `the system's limit on watched files was reached (${code})` : `watching failed (${err instanceof Error ? err.message : String(err)})`;
      this.options.logger.warn(`${why}: rescanning for changes every ${Math.round((this.options.pollMs ?? 30_000) / 1000)} s instead`);
    }
    if (this.poller || this.closed) return;
    void this.rescan(true);
    this.poller = setInterval(() => void this.rescan(false), this.options.pollMs ?? 30_000);
  }

  /** Compares every accepted file's size and mtime with the last scan and reads the changed ones again. */
  private async rescan(initial: boolean): Promise<void> {
    const seen = new Set<string>();
    for (const root of this.library.roots) {
      const adapter = sourceById(root.source)!;
      const files = await walkFiles(root.path, { logger: this.options.logger, accept: (f) => this.library.accepts(adapter, f, root.path) });
      for (const file of files) {
        seen.add(file);
        const now = await signature(file);
        if (this.known.get(file) !== now && !initial) this.schedule(file);
        this.known.set(file, now);
      }
    }
    for (const file of this.known.keys()) {
      if (!seen.has(file)) {
        this.known.delete(file);
        this.schedule(file);
      }
    }
  }

  /** Resolves when every change seen so far has been read and checked. */
  async settled(): Promise<void> {
    while (this.timers.size || this.verifiers.size) {
      await new Promise((r) => setTimeout(r, 10));
      await this.queue;
    }
    await this.queue;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const t of this.verifiers) clearTimeout(t);
    this.verifiers.clear();
    if (this.poller) clearInterval(this.poller);
    await Promise.all(this.watchers.map((w) => w.close()));
    await this.queue;
  }
}
