/**
 * Keeps a library fresh while it runs: every root is watched (a watch per folder on Linux, chokidar elsewhere), and a
 * file that is added, appended to, rewritten, renamed or deleted is read again (debounced, one file at a time). When
 * the system cannot watch (its watch limit: ENOSPC/EMFILE, or a network drive) it warns once and falls back to
 * rescanning the roots periodically.
 */
import { errorMessage } from '../errors.js';
import { stat } from 'node:fs/promises';
import type { LibraryCore } from '../library/open.js';
import { safeLogger, type Logger } from '../log.js';
import { sourceById, type SourceRoot } from './sources/registry.js';
import { isInside, walkFiles } from './walk.js';
import { walkBounds } from './file-state.js';
import { networkFileSystem } from './filesystems.js';
import { defaultWatchFactory, type Watcher, type WatchFactory } from './watchers.js';

/**
 * What a library watches now (`engine status`): whether its watchers have started (a second after the first load), the
 * root folders watched, the system watches they hold where counted (one per folder, on Linux), and the roots
 * rescanned on a timer instead.
 */
export interface WatchSummary {
  started: boolean;
  folders: number;
  watches?: number;
  polled: number;
}

/** How a root is watched: rescanned on a timer (polled), or by a watcher holding `watches` system watches. */
export interface RootWatch {
  polled: boolean;
  watches?: number;
}

export interface LiveOptions {
  logger: Logger;
  /** Quiet time after the last event for a file before it is read again. */
  debounceMs?: number;
  /** Rescan interval when watching is impossible. */
  pollMs?: number;
  /** How often roots are checked for having disappeared or come back. */
  rootCheckMs?: number;
  /** Tests: treat a root as being on this network file system. */
  networkFileSystem?: (path: string) => Promise<string | undefined>;
  watchFactory?: WatchFactory;
  /** Called after changed files were read again. */
  onChange?: (files: string[]) => void;
}

const VERIFY_AFTER_MS = 120;

async function signature(file: string): Promise<string> {
  const info = await stat(file).catch(() => undefined);
  return info ? `${info.size}:${info.mtimeMs}:${info.ino}` : 'missing';
}
const WATCH_LIMIT_CODES = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);

export class LiveUpdates {
  /** Each watched root's watcher: roots of one folder (a workspace's SpecStory and Aider histories) share one. */
  private readonly watchers = new Map<SourceRoot, Watcher>();
  /** When each watcher is ready. */
  private readonly ready = new WeakMap<Watcher, Promise<void>>();
  /** Roots being watched or polled, claimed before their watcher is ready (start and watch may overlap). */
  private readonly claimed = new Set<SourceRoot>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Since when each file waiting for its quiet time has waited. */
  private readonly waiting = new Map<string, number>();
  /** Files whose read is queued and not begun. */
  private readonly queued = new Set<string>();
  /** Files read a moment ago, each to be checked once more: its timer, and the check (run early by `settled`). */
  private readonly verifiers = new Map<NodeJS.Timeout, () => Promise<void>>();
  private queue: Promise<void> = Promise.resolve();
  /** Roots watched after they were read, to be compared with what the library holds (`compareLate`). */
  private readonly behind = new Set<SourceRoot>();
  private compareTimer: NodeJS.Timeout | undefined;
  private catching: Promise<void> = Promise.resolve();
  /** Watchers of roots added after `start`, being started. */
  private readonly starting = new Set<Promise<void>>();
  private poller: NodeJS.Timeout | undefined;
  private rootChecker: NodeJS.Timeout | undefined;
  /** Roots rescanned on a timer instead of watched (watching failed, or a network drive). */
  private readonly polled = new Set<SourceRoot>();
  /** Roots found missing by the last check. */
  private readonly missing = new Set<SourceRoot>();
  private readonly known = new Map<string, string>();
  private warnedLimit = false;
  /** First scans of roots that are polled, so `start` resolves once they know what exists. */
  private firstScans: Promise<void>[] = [];
  private closed = false;
  /** Set once every root the library read at the start is watched (or polled). */
  private started = false;

  private readonly options: LiveOptions;

  constructor(
    private readonly library: LibraryCore,
    options: LiveOptions,
  ) {
    this.options = { ...options, logger: safeLogger(options.logger) };
  }

  private get pollMs(): number {
    return this.options.pollMs ?? 30_000;
  }

  /** Starts watching every root the library read; resolves once the watchers are ready. */
  async start(): Promise<void> {
    const roots = this.library.roots.filter((root) => !this.claimed.has(root));
    for (const root of roots) this.claimed.add(root);
    await Promise.all(roots.map((root) => this.watchRoot(root)));
    await Promise.all(this.firstScans);
    this.started = true;
    // Whatever changed between the library's load and the watchers' start.
    for (const file of await this.library.changedFiles()) this.schedule(file);
    this.rootChecker = setInterval(() => void this.checkRoots(), this.options.rootCheckMs ?? 10_000);
    this.rootChecker.unref();
  }

  /** Watches a root added to the library after `start` (library.addRoot). */
  async watch(root: SourceRoot): Promise<RootWatch> {
    if (!this.closed && !this.claimed.has(root)) {
      this.claimed.add(root);
      // (what was written between the root's read and its watcher's start is seen by no watcher: compared once ready)
      const started = this.watchRoot(root).then(() => this.behindOn(root));
      this.starting.add(started);
      await started.finally(() => this.starting.delete(started));
    }
    return { polled: this.polled.has(root), watches: this.watchers.get(root)?.watches };
  }

  summary(): WatchSummary {
    // (roots of one folder share a watcher: each is counted once)
    const watchers = new Set(this.watchers.values());
    let watches: number | undefined = 0;
    for (const w of watchers) watches = watches === undefined || w.watches === undefined ? undefined : watches + w.watches;
    return { started: this.started, folders: watchers.size, watches, polled: this.polled.size };
  }

  /** Stops watching a root the library no longer reads (library.dropRoot). */
  async unwatch(root: SourceRoot): Promise<void> {
    this.claimed.delete(root);
    this.polled.delete(root);
    this.missing.delete(root);
    await this.letGo(root);
  }

  /** Takes a root's watcher off it and off the roots of its folder that share it: the watcher, and those roots. */
  private detach(root: SourceRoot): { watcher?: Watcher; roots: SourceRoot[] } {
    const watcher = this.watchers.get(root);
    const roots = watcher ? [...this.watchers].filter(([, w]) => w === watcher).map(([r]) => r) : [root];
    for (const r of roots) this.watchers.delete(r);
    return { watcher, roots };
  }

  /** A root's watcher no longer serves it: closed once no root of its folder is left on it. */
  private async letGo(root: SourceRoot): Promise<void> {
    const watcher = this.watchers.get(root);
    this.watchers.delete(root);
    if (watcher && ![...this.watchers.values()].includes(watcher)) await watcher.close().catch(() => undefined);
  }

  private async watchRoot(root: SourceRoot): Promise<void> {
    const network = await (this.options.networkFileSystem ?? networkFileSystem)(root.path);
    if (network) {
      this.options.logger.warn(
        `${root.path} is on a network drive (${network}), where changes made elsewhere are not reported: rescanning it every ${Math.round(this.pollMs / 1000)} s instead of watching`,
      );
      this.poll(root);
      return;
    }
    // (a folder watched for one source already: its watches serve this one too, and its events are read for both)
    const sharing = [...this.watchers].find(([r]) => r.path === root.path)?.[1];
    if (sharing) {
      this.watchers.set(root, sharing);
      return this.ready.get(sharing);
    }
    const factory = this.options.watchFactory ?? defaultWatchFactory;
    // (asked for every event of the folder: the roots are looked through, not copied)
    const accepted = (path: string): boolean => {
      for (const r of this.watchers.keys()) if (r.path === root.path && this.library.accepts(sourceById(r.source)!, path, r.path)) return true;
      return false;
    };
    let watcher: Watcher;
    try {
      watcher = factory(root, accepted, (folder) => this.library.filesUnder(folder));
    } catch (err) {
      this.fallBack(root, err);
      return;
    }
    this.watchers.set(root, watcher);
    for (const event of ['add', 'change', 'unlink'] as const) watcher.on(event, (path: string) => this.schedule(path));
    const ready = new Promise<void>((resolve) => {
      watcher.on('error', (err: unknown) => {
        // (the roots it serves now: the one it was made for may have gone, another of its folder kept it)
        const serving = [...this.watchers].find(([, w]) => w === watcher)?.[0];
        if (serving) this.fallBack(serving, err);
        resolve();
      });
      watcher.on('ready', () => resolve());
    });
    this.ready.set(watcher, ready);
    await ready;
  }

  /** A root read before its watcher started: its files are compared soon, with those of its folder's other roots. */
  private behindOn(root: SourceRoot): void {
    if (this.closed) return;
    this.behind.add(root);
    clearTimeout(this.compareTimer);
    this.compareTimer = setTimeout(() => void this.compareLate(), this.options.debounceMs ?? 50);
  }

  /** Reads what changed under roots watched late (started or waiting); resolves once their changes are scheduled. */
  private async compareLate(): Promise<void> {
    await Promise.all(this.starting);
    clearTimeout(this.compareTimer);
    if (this.behind.size && !this.closed) {
      const roots = [...this.behind];
      this.behind.clear();
      this.catching = this.catching
        .then(async () => {
          for (const file of await this.library.changedFiles(roots)) this.schedule(file);
        })
        .catch((err: unknown) => this.options.logger.error(`${roots.map((r) => r.path).join(', ')}: not compared (${errorMessage(err)})`));
    }
    await this.catching;
  }

  private schedule(file: string): void {
    if (this.closed) return;
    const debounce = this.options.debounceMs ?? 50;
    const since = this.waiting.get(file);
    // (a file written without pause is read all the same: its quiet time is not put off for longer than ten of them)
    if (since !== undefined && Date.now() - since >= debounce * 10) return;
    clearTimeout(this.timers.get(file));
    if (since === undefined) this.waiting.set(file, Date.now());
    this.timers.set(
      file,
      setTimeout(() => this.readNow(file), debounce),
    );
  }

  /** Queues a file's read now, its quiet time cut short if it was waiting. */
  private readNow(file: string): void {
    clearTimeout(this.timers.get(file));
    this.timers.delete(file);
    this.waiting.delete(file);
    // (a read of it queued and not begun yet reads it as it is then: a file written faster than it is read is not
    // queued once for every write)
    if (this.queued.has(file)) return;
    this.queued.add(file);
    this.queue = this.queue
      .then(async () => {
        this.queued.delete(file);
        const read = await signature(file);
        await this.library.reloadFile(file);
        this.options.onChange?.([file]);
        this.verifyLater(file, read);
      })
      .catch((err: unknown) => this.options.logger.error(`${file}: update failed (${err instanceof Error ? (err.stack ?? err.message) : String(err)})`));
  }

  /**
   * chokidar drops a second change event that comes within 50 ms of the first, and agents write several lines in a
   * burst: a moment after each read, the file is checked once more and read again if it moved on.
   */
  private verifyLater(file: string, read: string): void {
    if (this.closed) return;
    const check = async (): Promise<void> => {
      this.verifiers.delete(timer);
      clearTimeout(timer);
      if ((await signature(file)) !== read) this.schedule(file);
    };
    const timer = setTimeout(() => void check(), VERIFY_AFTER_MS);
    this.verifiers.set(timer, check);
  }

  /** Watching a root failed: say so once, then rescan it on a timer. */
  private fallBack(root: SourceRoot, err: unknown): void {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    const limit = code !== undefined && WATCH_LIMIT_CODES.has(code);
    if (!limit || !this.warnedLimit) {
      this.warnedLimit ||= limit;
      const why = limit ? `the system's limit on watched files was reached (${code})` : `watching ${root.path} failed (${errorMessage(err)})`;
      this.options.logger.warn(`${why}: rescanning for changes every ${Math.round(this.pollMs / 1000)} s instead`);
    }
    // (every root of the folder watched with it is rescanned instead)
    const { watcher, roots } = this.detach(root);
    void watcher?.close().catch(() => undefined);
    for (const r of roots) this.poll(r);
  }

  private poll(root: SourceRoot): void {
    if (this.closed || this.polled.has(root)) return;
    this.polled.add(root);
    this.firstScans.push(this.rescan([root], true));
    this.poller ??= setInterval(() => void this.rescan([...this.polled], false), this.pollMs);
  }

  /** Compares every accepted file's size and mtime with the last scan and reads the changed ones again. */
  private async rescan(roots: SourceRoot[], initial: boolean): Promise<void> {
    const seen = new Set<string>();
    for (const root of roots) {
      const adapter = sourceById(root.source)!;
      const files = await walkFiles(root.path, {
        logger: this.options.logger,
        ...walkBounds([root]),
        accept: (f, folder) => this.library.accepts(adapter, f, root.path, folder),
      });
      for (const file of files) {
        seen.add(file);
        const now = await signature(file);
        if (this.known.get(file) !== now && !initial) this.schedule(file);
        this.known.set(file, now);
      }
    }
    for (const file of this.known.keys()) {
      if (!seen.has(file) && roots.some((r) => isInside(r.path, file))) {
        this.known.delete(file);
        this.schedule(file);
      }
    }
  }

  /**
   * A root that disappears (an unmounted drive, a deleted folder) is reported once; its sessions stay (marked deleted
   * when the archive keeps them). When it comes back it is watched again and its files are read.
   */
  private async checkRoots(): Promise<void> {
    for (const root of [...this.library.roots]) {
      // (an imported export is a root that is one file: there while the file is)
      const info = await stat(root.path).catch(() => undefined);
      const exists = info ? info.isDirectory() || info.isFile() : false;
      if (!exists && !this.missing.has(root)) {
        this.missing.add(root);
        this.options.logger.warn(`${root.path} disappeared: its sessions stay searchable from the archive; it is read again if it comes back`);
        const known = this.library.filesUnder(root.path);
        for (const file of known) this.schedule(file);
      } else if (exists && this.missing.has(root)) {
        this.missing.delete(root);
        this.options.logger.info(`${root.path} is back: watching it again`);
        // (with the roots of its folder that shared its watcher)
        const { watcher, roots } = this.detach(root);
        await watcher?.close().catch(() => undefined);
        for (const r of roots) if (!this.polled.has(r)) await this.watchRoot(r);
        const adapter = sourceById(root.source)!;
        for (const file of await walkFiles(root.path, {
          logger: this.options.logger,
          accept: (f, folder) => this.library.accepts(adapter, f, root.path, folder),
        }))
          this.schedule(file);
      }
    }
  }

  /**
   * Files an answer is about to name, found changed before their watcher's event came (a transcript deleted a moment
   * ago): read now, and resolved once they and every change seen so far are read.
   */
  async recheck(files: readonly string[]): Promise<void> {
    for (const file of files) this.schedule(file);
    await this.settled();
  }

  /**
   * Resolves once every change seen so far has been read, or once `withinMs` have passed: files still in their quiet
   * time are read at once, and files read a moment ago are checked now. Changes seen after the call are not waited
   * for: a transcript an agent keeps writing does not hold an answer back (it held every CLI search for a second).
   */
  async settled(withinMs = Infinity): Promise<void> {
    const seen = (async () => {
      // (a root watched late: what changed before its watcher started counts as seen)
      await this.compareLate();
      await Promise.all([...this.verifiers.values()].map((check) => check()));
      for (const file of [...this.timers.keys()]) this.readNow(file);
      await this.queue;
    })();
    if (withinMs === Infinity) return seen;
    let deadline: NodeJS.Timeout | undefined;
    await Promise.race([seen, new Promise((resolve) => (deadline = setTimeout(resolve, withinMs)))]);
    clearTimeout(deadline);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.compareTimer);
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.waiting.clear();
    for (const t of this.verifiers.keys()) clearTimeout(t);
    this.verifiers.clear();
    if (this.poller) clearInterval(this.poller);
    if (this.rootChecker) clearInterval(this.rootChecker);
    await Promise.all([...new Set(this.watchers.values())].map((w) => w.close()));
    await this.queue;
  }
}
