/**
 * When the snapshot is written: at the end of a first load (and at checkpoints of a long one: loader.ts), and 30 s
 * (quietMs) after a change, be it live or read by a warm start, spaced as below; as the library closes; writes never
 * overlap, and a failed write leaves the library dirty for the next try.
 *
 * A snapshot is written whole (the index's postings above all: 0.86 GB at 10,000 sessions, 10 s of a core on a busy
 * machine), and an agent at work changes its transcript every few seconds all day: written 30 s after each change, the
 * engine of a large history spent a third of a core and tens of MB/s of disk on it. After live changes the next write
 * therefore waits at least LIVE_SPACING times as long as the last one took, so writing takes at most one part in
 * LIVE_SPACING of the time whatever the history's size; what changed meanwhile is read again at the next start if the
 * engine does not stop in order (it writes when it stops).
 */
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import type { Persistence } from '../store/persistence.js';
import { DamagedArrayError } from '../store/disk-array.js';
import type { SessionCatalog } from './catalog.js';

/** After live changes, the time since the last write is at least this many times what it took. */
export const LIVE_SPACING = 30;

export class SnapshotScheduler {
  private dirty = false;
  /** When the last write ended, and how long it took (ms). */
  private lastEnd = 0;
  private lastTook = 0;
  private held = false;
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<unknown> = Promise.resolve();
  /**
   * Told when a write found the previous snapshot's arrays damaged (the postings and term lists left in the file are
   * read to write the next): the index is rebuilt, else no snapshot would be written again.
   */
  onDamaged: ((reason: string) => void) | undefined;

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
    const spaced = this.lastEnd + LIVE_SPACING * this.lastTook - Date.now();
    this.timer = setTimeout(() => void this.saveNow(), Math.max(this.quietMs, spaced));
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
      const started = Date.now();
      try {
        // written while a load holds it: a checkpoint, which a restart must not take for the whole history
        const written = await persistence.save(
          this.catalog.index,
          [...this.catalog.sessions.values()],
          this.catalog.manifest(),
          () => this.catalog.semantic.toData(),
          this.held,
        );
        if (written) persistence.storage.ok();
      } catch (err) {
        this.dirty = true;
        // (a full or read-only folder is said in every answer, once in the log: storage-state.ts)
        if (!persistence.storage.failed(err)) this.logger.warn(`snapshot not written (${errorMessage(err)}); the next start reads more files again`);
        // (a load's checkpoint leaves it to the load's last write: a rebuild meanwhile would race the load's reading)
        if (err instanceof DamagedArrayError && !this.held) this.onDamaged?.(err.message);
      } finally {
        this.lastEnd = Date.now();
        this.lastTook = this.lastEnd - started;
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
        if (!persistence.storage.failed(err)) this.logger.warn(`semantic model not written (${errorMessage(err)}); it is written with the next snapshot`);
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
