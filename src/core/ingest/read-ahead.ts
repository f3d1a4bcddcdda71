/**
 * Reading ahead of the commits during a long load with parsing threads: files are handed to the threads in load order
 * as long as fewer than a budget of bytes wait to be committed, so the threads parse on across commit batches while
 * this thread indexes and archives, and memory holds a bounded stretch of parsed sessions.
 */
import type { FileState } from './file-state.js';
import type { FileRead } from './read-files.js';
import type { SourceRoot } from './sources/registry.js';

/**
 * Bytes of transcript read ahead of the commit. At 10,000 real-shaped sessions (4.9 GB, files up to 16 MB) a load took
 * 257 / 247 s with 96 MB ahead and 222 / 227 s with 256 MB: with less, the thread waited for commits and the commits
 * for the thread. The price is the first load's peak memory: 2.5–2.8 GB → 3.0–3.2 GB.
 */
export const AHEAD_BYTES = 256 * 1024 * 1024;

export class ReadAhead {
  private next = 0;
  private bytesAhead = 0;
  private readonly started = new Map<string, Promise<FileRead | undefined>>();

  constructor(
    private readonly order: { root: SourceRoot; state: FileState }[],
    private readonly readOne: (root: SourceRoot, state: FileState) => Promise<FileRead | undefined>,
    private readonly wanted: (file: string) => boolean,
    private readonly stopped: () => boolean,
    private readonly budget = AHEAD_BYTES,
  ) {}

  /**
   * The reads of one commit batch in order (files no longer wanted are left out; none after the load is stopped),
   * topping the read-ahead up as they come; `onFile` is told of each.
   */
  async take(root: SourceRoot, batch: FileState[], onFile: (state: FileState) => void): Promise<FileRead[]> {
    const out: FileRead[] = [];
    for (const state of batch) {
      if (this.stopped()) break;
      this.fill();
      let read = this.started.get(state.file);
      if (!read && this.wanted(state.file) && !this.stopped()) read = this.readOne(root, state);
      if (this.started.delete(state.file)) this.bytesAhead -= state.size;
      const done = await read;
      if (done) out.push(done);
      if (read) onFile(state);
    }
    this.fill();
    return out;
  }

  private fill(): void {
    while (this.next < this.order.length && this.bytesAhead < this.budget && !this.stopped()) {
      const { root, state } = this.order[this.next++];
      if (!this.wanted(state.file) || this.started.has(state.file)) continue;
      this.bytesAhead += state.size;
      this.started.set(state.file, this.readOne(root, state));
    }
  }
}
