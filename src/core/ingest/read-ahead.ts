/**
 * Reading ahead of the commits during a long load with parsing threads: files are handed to the threads in load order
 * as long as fewer than a budget of bytes wait to be committed, so the threads parse on across commit batches while
 * this thread indexes and archives, and memory holds a bounded stretch of parsed sessions.
 */
import type { FileState } from './file-state.js';
import type { FileRead } from './read-files.js';
import type { SourceRoot } from './sources/registry.js';

/**
 * Bytes of transcript read ahead of the commit (at most: a smaller heap gets less, library/memory-guard.ts). Measured
 * on 3,000 real-shaped sessions (1.5 GB) once commits were bounded: 256 MB ahead peaked at 1.64 GB resident in 78 s,
 * 96 MB at 1.15 GB in 69 s, 48 MB at 1.04 GB in 75 s (the thread then waits for the commits). With commits of 32 MB
 * and checkpoints at 128 MB, on 2,000 sessions of a growing vocabulary (1 GB): 32 MB ahead peaked at 853 MB in 145 s,
 * where 96 MB (and commits of 96 MB, checkpoints at 256 MB) peaked at 1,078 MB in 159 s.
 */
export const AHEAD_BYTES = 32 * 1024 * 1024;

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
