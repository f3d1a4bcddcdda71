/** What a SessionLibrary is configured with and reports, and what it remembers per file. */
import { setTimeout as delay } from 'node:timers/promises';
import type { TeamRef } from '../team/id.js';
import type { FileState } from '../ingest/file-state.js';
import type { Logger } from '../log.js';
import type { EmbedConfig } from '../embed/config.js';
import type { Embedder } from '../embed/embedder.js';
import type { HeapUse } from './memory-guard.js';
import type { EntryState } from '../store/archive.js';
import type { SourceRoot } from '../ingest/sources/registry.js';
import type { LiveOptions } from '../ingest/live.js';

/** A load of at least this many files parses them on other threads (ingest/parse-pool.ts). */
export const POOL_MIN_FILES = 16;

/**
 * A start that restores a snapshot this large (about 1,000 real-sized sessions) walks the roots on a thread of its own
 * meanwhile (ingest/scan-aside.ts); for a smaller one, starting the thread costs more than the walk.
 */
export const SCAN_ASIDE_MIN_BYTES = 64 * 1024 * 1024;

/**
 * A long first load writes the snapshot this often, so that a load that is killed resumes where it was. Each write
 * costs the load time (at 10,000 real-sized sessions, writes every 2 minutes made the 4-minute load 15% slower), so
 * only loads longer than this pay for one; a shorter load killed midway reads its files again from their archive
 * entries (parsed and masked already).
 */
export const CHECKPOINT_MS = 300_000;

/**
 * The archive's check after a warm start's load starts this long after the load ended: the answers that waited for the
 * load are sent first. Work queued for the event loop's next turn was not enough: an answer's reply is written in a turn
 * after it, behind that work (the check compares every file's entry: 5-25 ms of a warm start at 10,000 sessions).
 */
export const AFTER_LOAD_MS = 100;

/** Settles AFTER_LOAD_MS from now, or at once when `signal` is aborted (a library closed meanwhile does not wait). */
export const afterLoad = (signal: AbortSignal): Promise<void> => delay(AFTER_LOAD_MS, undefined, { signal }).catch(() => undefined);

/**
 * ...and whenever the postings and term lists it holds in memory pass this many bytes: the snapshot takes them over
 * (written merged with the ones already in the file) and their memory goes, so a first load's memory does not grow
 * with the history. Each write copies the index so far, so a smaller budget costs write time (measured with the
 * commits and read-ahead, ingest/read-ahead.ts).
 */
export const CHECKPOINT_BYTES = 128 * 1024 * 1024;

/**
 * The first page of each tool output, file read or thinking turn is indexed (the archive's page: 512,000 characters);
 * the rest is kept whole for reading (read_session by docid and offset) but not indexed.
 */
export const INDEXED_CHARS_PER_TOOL_TURN = 512_000;

/** Transcript files larger than this are skipped with a logged reason unless told otherwise (sessionSearch.maxFileSizeMB). */
export const DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024;

export interface LibraryOptions {
  roots: SourceRoot[];
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  /** The product's own data folder (archive); without one nothing is written. */
  dataDir?: string;
  /** Keep a masked copy of every session in the data folder (default on when there is a data folder). */
  archive?: boolean;
  /** Glob patterns of transcript files never to read. */
  exclude?: string[];
  /** Files larger than this are skipped with a logged reason (default DEFAULT_MAX_FILE_BYTES). */
  maxFileBytes?: number;
  /** Keep an index snapshot in the data folder for a fast start (default on when there is a data folder). */
  snapshot?: boolean;
  /** Quiet time after live changes before the snapshot is written again. */
  snapshotDelayMs?: number;
  /** Threads that parse during a long load (default: one fewer than the cores, at most 3; 0 parses on this thread). */
  parseThreads?: number;
  /**
   * Walk the roots on a thread of their own while the snapshot is restored (default: when the snapshot is
   * SCAN_ASIDE_MIN_BYTES or more; ingest/scan-aside.ts).
   */
  scanAside?: boolean;
  /** How often a long load writes the snapshot as it goes (default CHECKPOINT_MS). */
  checkpointMs?: number;
  /** Index bytes held in memory that make a load write the snapshot (default CHECKPOINT_BYTES). */
  checkpointBytes?: number;
  /** The heap in use and its limit, before and after a collection (library/memory-guard.ts; tests give their own). */
  heap?: () => HeapUse;
  heapCollected?: () => HeapUse;
  /** The user's own embedding model (embed/config.ts): absent, meaning comes from the learned LSA leg alone. */
  embed?: EmbedConfig;
  /** How an embedding config becomes an embedder (tests give their own; by default embed/open.ts). */
  openEmbedder?: (config: EmbedConfig) => Promise<Embedder>;
  /** Pauses before embedding is tried again after a failure (tests give short ones). */
  embedRetryMs?: readonly number[];
  /**
   * Keep the sessions fresh once the load is done: the roots are watched and what changes is read again
   * (ingest/live.ts; `true` with its defaults, or its options). Closing the library stops watching first.
   */
  watch?: boolean | Omit<LiveOptions, 'logger'>;
  /**
   * The team archive searched beside the local one when a question names none (`--team`, a configured database):
   * opened on first use, closed with the library (library.ts).
   */
  team?: TeamRef;
}

export interface LoadProgress {
  /** Files read so far, of those that changed since the snapshot (all of them without one). */
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
  sessions: number;
}

/** What a library knows of one transcript file: where it was read from, its state then, and its sessions. */
export interface KnownFile extends FileState {
  root: SourceRoot;
  ids: string[];
  /** Size and modification time of the file's archive entry as last written or read. */
  entry?: EntryState;
}
