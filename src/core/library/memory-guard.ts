/**
 * How close this process's JavaScript heap is to its limit (the `--max-old-space-size` it runs with, or the about 4 GB
 * that VS Code's runtime allows), so that a long load hands the index's memory to the snapshot early and, if memory
 * still runs short, stops at a clear point with what it has instead of dying (and being restarted into the same death).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AHEAD_BYTES } from '../ingest/read-ahead.js';
import { COMMIT_MAX_BYTES } from '../ingest/file-state.js';
import { CHECKPOINT_BYTES, CHECKPOINT_MS, type LibraryOptions } from './options.js';
import { grouped } from '../digits.js';

/** Past this share of the limit a load writes its snapshot at once (the index's memory goes to the file). */
export const CHECKPOINT_SHARE = 0.55;
/**
 * A load's budget of postings in memory makes it write at most once in this while (a write copies the whole index so
 * far: at 10,000 sessions of a growing vocabulary, checkpoints at 128 MB came every 40 s, 4-5 s each); the heap's own
 * pressure (CHECKPOINT_SHARE) makes it write at once whatever the while. A budget named in the options is kept exactly.
 */
export const CHECKPOINT_SPACING_MS = 60_000;
/** Past this share, after a collection, a load stops: what was read stays searchable, the answer says why it is partial. */
export const STOP_SHARE = 0.8;

export interface HeapUse {
  used: number;
  limit: number;
}

/** The heap in use and its limit, in bytes. */
export function heapUse(): HeapUse {
  const h = getHeapStatistics();
  return { used: h.used_heap_size, limit: h.heap_size_limit };
}

let collect: (() => void) | undefined;

/**
 * The heap in use once garbage is collected: used only when the heap looks nearly full, to tell garbage not yet
 * collected from memory really held before stopping a load.
 */
export function heapUseAfterCollection(): HeapUse {
  try {
    if (!collect) {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    }
    collect();
  } catch {
    // no collection to be had: the figure below includes garbage, which only makes the guard stop sooner
  }
  return heapUse();
}

/** What a person reads when a load stopped for memory: what happened, and what they can do. */
export function memoryStopReason(use: HeapUse, filesDone: number, filesTotal: number): string {
  const mb = (n: number): string => `${grouped(Math.round(n / 1048576))} MB`;
  return (
    `memory ran short (${mb(use.used)} of the ${mb(use.limit)} heap limit in use) after ${grouped(filesDone)} of ` +
    `${grouped(filesTotal)} transcript files; what was read is searchable. Give Node more memory ` +
    `(NODE_OPTIONS=--max-old-space-size=8192) or exclude large folders (the sessionSearch.exclude setting), then start again: ` +
    `indexing resumes where it stopped`
  );
}

/**
 * What a load holds at once, from the heap it may use: transcript bytes parsed ahead of the commits, bytes in one
 * commit, and index bytes in memory before the snapshot takes them. The defaults are fixed, not a share of the heap:
 * a larger heap only lets garbage lie longer, and a load that took more with the usual 4 GB heap peaked higher and was
 * no faster; a smaller heap (`--max-old-space-size`) gets proportionally less, so the load fits it.
 */
export function loadBounds(heapLimit: number): { aheadBytes: number; commitBytes: number; checkpointBytes: number } {
  const mb = 1024 * 1024;
  const within = (share: number, least: number, most: number): number => Math.round(Math.max(least, Math.min(most, heapLimit * share)));
  return {
    aheadBytes: within(1 / 8, 16 * mb, AHEAD_BYTES),
    commitBytes: within(1 / 16, 8 * mb, COMMIT_MAX_BYTES),
    checkpointBytes: within(1 / 8, 16 * mb, CHECKPOINT_BYTES),
  };
}

/** When a load writes its snapshot between commits, and whether it must stop: one per load. */
export class LoadGuard {
  readonly bounds: ReturnType<typeof loadBounds>;
  private checkpoint: number;

  constructor(
    private readonly options: Pick<LibraryOptions, 'checkpointMs' | 'checkpointBytes' | 'heap' | 'heapCollected'>,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.checkpoint = now();
    this.bounds = loadBounds((options.heap ?? heapUse)().limit);
  }

  /**
   * After a commit: writes the snapshot (`save`) when the load has not for a while, when the index holds more than its
   * budget in memory, or when the heap is past CHECKPOINT_SHARE of its limit; answers why the load must stop when the
   * heap is still past STOP_SHARE after a collection, else undefined.
   */
  async afterCommit(writer: boolean, indexBytes: number, save: () => Promise<void>, filesDone: number, filesTotal: number): Promise<string | undefined> {
    const {
      checkpointMs = CHECKPOINT_MS,
      checkpointBytes = this.bounds.checkpointBytes,
      heap = heapUse,
      heapCollected = heapUseAfterCollection,
    } = this.options;
    const use = heap();
    const pressed = use.used > CHECKPOINT_SHARE * use.limit;
    const since = this.now() - this.checkpoint;
    // (a heap too small for the whole budget gets its share of it at every commit, as before)
    const spacing = this.options.checkpointBytes === undefined && this.bounds.checkpointBytes >= CHECKPOINT_BYTES ? CHECKPOINT_SPACING_MS : 0;
    if (writer && (since > checkpointMs || (indexBytes > checkpointBytes && since >= spacing) || pressed)) {
      await save();
      this.checkpoint = this.now();
    }
    if (!pressed || heap().used <= STOP_SHARE * use.limit) return undefined;
    const held = heapCollected();
    return held.used > STOP_SHARE * held.limit ? memoryStopReason(held, filesDone, filesTotal) : undefined;
  }
}
