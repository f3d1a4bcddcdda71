/**
 * The workspace roots the engine's clients registered in `engine/join`: each read once and, for a client that asked,
 * watched, while at least one connection that named it is open, and for `lingerMs` after the last one closed (watched
 * then, so that it stays current). A command run again in the same folder, or a window reloaded, finds its folder read
 * and current instead of walking it again: a folder is walked to any depth for SpecStory and Aider histories, which in a
 * large folder costs more than the answer (a checkout of 130,000 files: 0.5 s of every command). A folder that would
 * take more than LINGER_WATCHES watches, or can only be rescanned (a network drive), is let go at once instead. A root
 * the engine reads for everyone is left alone.
 */
import { realpath } from 'node:fs/promises';
import type { SourceRoot } from '../core/ingest/sources/registry.js';
import type { SessionLibrary } from '../core/library.js';
import type { Logger } from '../core/log.js';
import { errorMessage } from '../core/errors.js';

interface Held {
  /** The root as the library reads it, once it has been read (undefined: it does not exist). */
  added: Promise<SourceRoot | undefined>;
  holders: Set<object>;
  watchers: Set<object | symbol>;
  /** Whether the library watches it now (a lingering root's watch is kept by whoever names it next). */
  watched?: boolean;
  /** Set while no connection names it: when it fires, the root is no longer read. */
  linger?: NodeJS.Timeout;
  /** While its first walk runs: the walk's stop, and the roots walked with it (stopped once none has a holder). */
  reading?: { controller: AbortController; batch: Held[] };
}

/** A folder kept for the next client is watched only while it takes at most this many system watches (folders). */
export const LINGER_WATCHES = 10_000;

/** What keeps a root watched while it lingers. */
const LINGERING = Symbol('lingering');

/** How a root's reading, started once every new root of a registration is known, settles its `added`. */
type Settle = { resolve: (root: SourceRoot | undefined) => void; reject: (err: unknown) => void };

export class WorkspaceRoots {
  private readonly held = new Map<string, Held>();
  private closed = false;

  constructor(
    private readonly library: SessionLibrary,
    private readonly logger: Logger,
    private readonly lingerMs: number,
  ) {}

  /** Reads (and with `watch`, watches) `roots` for `holder`; resolves once they are read. */
  async register(holder: object, roots: readonly SourceRoot[], watch: boolean): Promise<number> {
    const named: { real: string; held: Held }[] = [];
    const fresh: { root: SourceRoot; settle: Settle; held: Held }[] = [];
    // (read already but watched by nobody, held by a command running meanwhile: what changed since is read again)
    const unwatched = new Set<Held>();
    for (const root of roots) {
      const real = await realpath(root.path).catch(() => undefined);
      if (!real) continue;
      const key = `${root.source}=${real}`;
      let held = this.held.get(key);
      if (!held) {
        // a root the engine reads for everyone (given to `serve`) is not a client's to drop
        if (this.library.readsRoot({ source: root.source, path: real })) continue;
        // (settled once the reading below is done: a client registering the same root meanwhile waits for it too)
        let settle!: Settle;
        held = { added: new Promise((resolve, reject) => (settle = { resolve, reject })), holders: new Set(), watchers: new Set() };
        held.added.catch(() => undefined); // (each holder awaits it below, where a failure is logged)
        this.held.set(key, held);
        fresh.push({ root: { source: root.source, path: real }, settle, held });
      } else if (!held.watched) unwatched.add(held);
      if (held.linger) {
        // (a lingering root is still watched: the watch is kept, whoever holds it now)
        clearTimeout(held.linger);
        held.linger = undefined;
        held.watchers.delete(LINGERING);
      }
      held.holders.add(holder);
      named.push({ real, held });
    }
    // the new ones are read together: a folder's SpecStory and Aider histories in one walk (a command run in a large
    // folder walked it once for each)
    if (fresh.length) {
      // (a walk whose clients all went is stopped: a command run in a huge folder and given up on leaves nothing running)
      const reading = { controller: new AbortController(), batch: fresh.map((f) => f.held) };
      for (const held of reading.batch) held.reading = reading;
      const done = (): void => reading.batch.forEach((held) => (held.reading = undefined));
      this.library
        .addRoots(
          fresh.map((f) => f.root),
          reading.controller.signal,
        )
        .then(
          (added) => {
            done();
            fresh.forEach((f, i) => f.settle.resolve(added[i]));
          },
          (err: unknown) => {
            done();
            fresh.forEach((f) => f.settle.reject(err));
          },
        );
    }
    let count = 0;
    const stale: SourceRoot[] = [];
    for (const { real, held } of named) {
      const added = await held.added.catch((err: unknown) => {
        this.logger.warn(`${real}: not read (${errorMessage(err)})`);
        return undefined;
      });
      if (!added) continue;
      count++;
      if (watch && held.holders.has(holder)) {
        held.watchers.add(holder);
        // (a watch started after a root's read compares it once ready: core/ingest/live.ts)
        if (!held.watched) {
          await this.watch(held, added);
          continue;
        }
      }
      if (unwatched.has(held)) stale.push(added);
    }
    if (stale.length) await this.library.catchUp(stale);
    return count;
  }

  /** A client's connection closed: the roots no other client holds linger, watched, then are no longer read. */
  async release(holder: object): Promise<void> {
    if (this.closed) return;
    for (const [key, held] of [...this.held]) {
      if (!held.holders.delete(holder)) continue;
      held.watchers.delete(holder);
      const reading = held.reading;
      if (reading && reading.batch.every((h) => !h.holders.size)) reading.controller.abort();
      const added = await held.added.catch(() => undefined);
      // (the engine stopped meanwhile, or the root was let go and named again: that is another's now)
      if (this.closed || this.held.get(key) !== held) continue;
      if (!added) {
        if (!held.holders.size) this.held.delete(key);
        continue;
      }
      if (held.holders.size) {
        if (!held.watchers.size) await this.unwatch(held, added);
        continue;
      }
      // (another client's release, waited for at the same time, set it lingering already)
      if (held.linger) continue;
      const first = !held.watched;
      held.watchers.add(LINGERING);
      held.linger = setTimeout(() => void this.letGo(key, held, added), this.lingerMs);
      held.linger.unref();
      if (!first) continue;
      // (a folder that cannot be watched cheaply, say a home folder, is not kept: rescanning it on a timer, or holding
      // a large share of the user's inotify watches, for nobody costs more than walking it for the next command)
      const how = await this.watch(held, added).catch((err: unknown) => this.logger.warn(`${added.path}: not watched (${errorMessage(err)})`));
      const why = how?.polled
        ? 'it cannot be watched'
        : how?.watches !== undefined && how.watches > LINGER_WATCHES
          ? `its ${how.watches} folders are too many to watch`
          : '';
      if (why && held.linger) {
        clearTimeout(held.linger);
        this.logger.info(`${added.path}: not kept for the next client (${why}); read again when one names it`);
        await this.letGo(key, held, added, false);
      }
    }
  }

  /** A root that lingered with no client naming it: no longer watched or read. */
  private async letGo(key: string, held: Held, added: SourceRoot, say = true): Promise<void> {
    held.linger = undefined;
    held.watchers.delete(LINGERING);
    if (held.holders.size || this.held.get(key) !== held) return;
    this.held.delete(key);
    await this.unwatch(held, added);
    this.library.dropRoot(added);
    if (say) this.logger.info(`${added.path}: named by no client for ${Math.round(this.lingerMs / 1000)} s, no longer read`);
  }

  private watch(held: Held, root: SourceRoot): ReturnType<SessionLibrary['watchRoot']> {
    held.watched = true;
    return this.library.watchRoot(root);
  }

  private unwatch(held: Held, root: SourceRoot): Promise<void> {
    held.watched = false;
    return this.library.unwatchRoot(root);
  }

  /** Lets go of every root at once (the engine stops). */
  close(): void {
    this.closed = true;
    for (const held of this.held.values()) clearTimeout(held.linger);
  }
}
