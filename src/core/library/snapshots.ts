/**
 * When the snapshot is written: at the end of a load that changed something, and after live changes once things have
 * been quiet for a while; writes never overlap, and a failed write leaves the library dirty for the next try.
 */
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import type { Persistence } from '../store/persistence.js';
import type { SessionCatalog } from './catalog.js';

export class SnapshotScheduler {
  private dirty = false;
  private held = false;
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly persistence: Persistence | undefined,
    private readonly catalog: SessionCatalog,
    private readonly logger: Logger,
    private readonly quietMs = 30_000,
  ) {}

  /** Something changed since the last snapshot. */
  get isDirty(): boolean {
    return this.dirty;
  }

  markDirty(): void {
    this.dirty = true;
  }

  /**
   * While a load runs it writes the snapshot itself, between commits (Loader: a checkpoint when the index holds too
   * much in memory, or has not been written for a while): a write racing its commits could not hand the index's
   * memory to the file, so changes only mark the library dirty meanwhile.
   */
  hold(held: boolean): void {
    this.held = held;
    if (held) {
      clearTimeout(this.timer);
      this.timer = undefined;
    } else if (this.dirty) this.changed();
  }

  /** After a change: write the snapshot once nothing else changed for a while. */
  changed(): void {
    this.dirty = true;
    if (!this.persistence || this.timer || this.held) return;
    this.timer = setTimeout(() => void this.saveNow(), this.quietMs);
    this.timer.unref();
  }

  /** Writes the snapshot now (when this process is the writer), after any write under way. */
  async saveNow(): Promise<void> {
    if (!this.persistence) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const persistence = this.persistence;
    const run = async (): Promise<void> => {
      this.dirty = false;
      try {
        // written while a load holds it: a checkpoint, which a restart must not take for the whole history
        await persistence.save(
          this.catalog.index,
          [...this.catalog.sessions.values()],
          this.catalog.manifest(),
          () => this.catalog.semantic.toData(),
          this.held,
        );
      } catch (err) {
        this.dirty = true;
        this.logger.warn(`snapshot not written (${errorMessage(err)}); the next start reads more files again`);
      }
    };
    const next = this.saving.then(run);
    this.saving = next;
    await next;
  }

  /** Writes the semantic leg's file alone (after a model was learned), after any write under way. */
  async saveSemantic(): Promise<void> {
    if (!this.persistence) return;
    const persistence = this.persistence;
    const next = this.saving.then(() =>
      persistence.saveSemantic(this.catalog.semantic.toData()).catch((err: unknown) => {
        this.dirty = true;
        this.logger.warn(`semantic model not written (${errorMessage(err)}); it is written with the next snapshot`);
      }),
    );
    this.saving = next;
    await next;
  }

  /** Writes what is pending and waits for it. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dirty) await this.saveNow();
    await this.saving;
  }
}
