/**
 * The workspace roots the engine's clients registered in `engine/join`: each read once and, for a client that asked,
 * watched, while at least one connection that named it is open. A root the engine reads for everyone is left alone.
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
  watchers: Set<object>;
}

/** How a root's reading, started once every new root of a registration is known, settles its `added`. */
type Settle = { resolve: (root: SourceRoot | undefined) => void; reject: (err: unknown) => void };

export class WorkspaceRoots {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly library: SessionLibrary,
    private readonly logger: Logger,
  ) {}

  /** Reads (and with `watch`, watches) `roots` for `holder`; resolves once they are read. */
  async register(holder: object, roots: readonly SourceRoot[], watch: boolean): Promise<number> {
    const named: { real: string; held: Held }[] = [];
    const fresh: { root: SourceRoot; settle: Settle }[] = [];
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
        fresh.push({ root: { source: root.source, path: real }, settle });
      }
      held.holders.add(holder);
      named.push({ real, held });
    }
    // the new ones are read together: a folder's SpecStory and Aider histories in one walk (a command run in a large
    // folder walked it once for each)
    if (fresh.length)
      this.library.addRoots(fresh.map((f) => f.root)).then(
        (added) => fresh.forEach((f, i) => f.settle.resolve(added[i])),
        (err: unknown) => fresh.forEach((f) => f.settle.reject(err)),
      );
    let count = 0;
    for (const { real, held } of named) {
      const added = await held.added.catch((err: unknown) => {
        this.logger.warn(`${real}: not read (${errorMessage(err)})`);
        return undefined;
      });
      if (!added) continue;
      count++;
      if (!watch || !held.holders.has(holder)) continue;
      const first = !held.watchers.size;
      held.watchers.add(holder);
      if (first) await this.library.watchRoot(added);
    }
    return count;
  }

  /** A client's connection closed: the roots no other client holds are no longer read or watched. */
  async release(holder: object): Promise<void> {
    for (const [key, held] of [...this.held]) {
      if (!held.holders.delete(holder)) continue;
      held.watchers.delete(holder);
      const added = await held.added.catch(() => undefined);
      if (added && !held.watchers.size) await this.library.unwatchRoot(added);
      if (held.holders.size) continue;
      this.held.delete(key);
      if (added) this.library.dropRoot(added);
    }
  }
}
