/**
 * How close this process's JavaScript heap is to its limit (the `--max-old-space-size` it runs with, or the about 4 GB
 * that VS Code's runtime allows), so that a long load hands the index's memory to the snapshot early and, if memory
 * still runs short, stops at a clear point with what it has instead of dying (and being restarted into the same death).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AHEAD_BYTES } from '../ingest/read-ahead.js';
import { COMMIT_MAX_BYTES } from '../ingest/file-state.js';
import { CHECKPOINT_BYTES } from './options.js';

/** Past this share of the limit a load writes its snapshot at once (the index's memory goes to the file). */
export const CHECKPOINT_SHARE = 0.55;
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
  const mb = (n: number): string => `${Math.round(n / 1048576).toLocaleString('en-US')} MB`;
  return (
    `memory ran short (${mb(use.used)} of the ${mb(use.limit)} heap limit in use) after ${filesDone.toLocaleString('en-US')} of ` +
    `${filesTotal.toLocaleString('en-US')} transcript files; what was read is searchable. Give Node more memory ` +
    `(NODE_OPTIONS=--max-old-space-size=8192) or exclude large folders (the sessionSearch.exclude setting), then start again: ` +
    `indexing resumes where it stopped`
  );
}

/**
 * What a load holds at once, from the heap it may use: transcript bytes parsed ahead of the commits, bytes in one
 * commit, and index bytes in memory before the snapshot takes them. The defaults hold for the usual 4 GB heap; a
 * smaller one (`--max-old-space-size`) gets proportionally less, so the load fits it.
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
