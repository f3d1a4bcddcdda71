/**
 * The reading part of a load (loader.ts): the changed files in commit batches, newest first (load-order.ts), parsed on
 * other threads when there are many (the next batch read ahead while this one is indexed and archived), each batch
 * committed, and the snapshot written now and then or the load stopped when memory runs short (memory-guard.ts).
 */
import type { FileState } from '../ingest/file-state.js';
import { ParsePool } from '../ingest/parse-pool.js';
import { ReadAhead } from '../ingest/read-ahead.js';
import { readBatch, readOne, type FileRead, type ReadOptions } from '../ingest/read-files.js';
import type { SourceRoot } from '../ingest/sources/registry.js';
import { newestFirst, order } from './load-order.js';
import { LoadGuard } from './memory-guard.js';
import { POOL_MIN_FILES, type LibraryOptions } from './options.js';

/** What the batches are read with: the loader's own steps, named. */
export interface BatchesRun {
  changed: { root: SourceRoot; files: FileState[] }[];
  totalFiles: number;
  options: LibraryOptions;
  /** How each file is read: its `onFile` told of each, its `signal` stops the load between files (the pool added here). */
  read: ReadOptions;
  /** Whether a file is still to be read (not read on demand meanwhile). */
  wanted: (file: string) => boolean;
  /** Whether this process writes the data folder, asked again until it does. */
  writable: () => Promise<boolean>;
  /** The snapshot scheduler told whether it may write while the load runs. */
  hold: (writer: boolean) => void;
  commit: (root: SourceRoot, reads: FileRead[], writer: boolean, carry: Map<string, unknown>) => Promise<void>;
  /** Files committed: what answers cover from now on. */
  committed: (files: FileState[]) => void;
  /** The index's postings in memory (bytes) and the files committed so far. */
  progress: () => { indexBytes: number; filesDone: number };
  /** Writes the snapshot now (a checkpoint). */
  saveNow: () => Promise<void>;
}

/** Reads and commits every batch of `run.changed`; why the load stopped short for memory, or undefined. */
export async function readBatches(run: BatchesRun, writer: boolean): Promise<string | undefined> {
  const { options, totalFiles } = run;
  const { signal } = run.read;
  // what a load holds at once, bounded by what this process's heap allows, and when it writes or stops (memory-guard.ts)
  const guard = new LoadGuard(options);
  const bounds = guard.bounds;
  const batches = newestFirst(run.changed, bounds.commitBytes);
  const pool = totalFiles >= POOL_MIN_FILES ? ParsePool.open(options.env ?? process.env, options.logger, options.parseThreads) : undefined;
  const read = { ...run.read, pool };
  const carry = new Map<string, unknown>(); // what fix-ups across files carry from one commit to the next
  run.hold(writer);
  const ahead =
    pool &&
    new ReadAhead(
      order(batches),
      (root, state) => readOne(root, state, read),
      run.wanted,
      () => !!signal?.aborted,
      bounds.aheadBytes,
    );
  try {
    for (const { root, batch } of batches) {
      if (signal?.aborted) return undefined;
      const files = batch.filter((f) => run.wanted(f.file));
      const reads = ahead ? await ahead.take(root, files, read.onFile) : await readBatch(root, files, read);
      // a reader becomes the writer once the lock is free (its holder closed or died): from then on what it reads
      // is archived and leaves memory
      if (!writer && (writer = await run.writable())) run.hold(true);
      await run.commit(root, reads, writer, carry);
      run.committed(signal?.aborted ? files.filter((f) => reads.some((r) => r.file === f.file)) : files);
      // written down now and then (a killed load resumes there) and before the index's memory grows large; never a
      // crash (and a restart into the same crash): a load that still finds the heap nearly full stops here
      const { indexBytes, filesDone } = run.progress();
      const stopped = await guard.afterCommit(writer, indexBytes, run.saveNow, filesDone, totalFiles);
      if (stopped) return stopped;
    }
    return undefined;
  } finally {
    run.hold(false);
    await pool?.close();
  }
}
