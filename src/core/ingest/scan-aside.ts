/**
 * The roots walked and their files stated on a thread of their own (scan-worker.ts), for a warm start of a large
 * history: the main thread restores the snapshot meanwhile. At 10,000 sessions the walk and the stats of 11,000 files in
 * 2,000 folders take 0.2-0.4 s of the main thread, as long as a large part of the restore. Where no thread can start
 * (no script beside the bundle) or it fails, the scan runs on the main thread as before: a thread only saves time.
 * Given the archive's folder, the thread also states each file's archive entry, which the main thread would otherwise
 * state after the restore (at 50,000 sessions that check took 0.61 s; comparing takes 0.02 s). The engine starts the
 * thread before its modules load (scan-prestart.ts); the walk it started is taken here when it is the one asked for.
 */
import type { Logger } from '../log.js';
import { scanOf, scanRoots, type Scan } from './file-state.js';
import { transcriptTest } from './exclude.js';
import { scanWorkerScript, takePrestarted, walkOnThread } from './scan-prestart.js';
import { unpackScan, type PackedScan } from './scan-packed.js';
import type { SourceRoot } from './sources/registry.js';

/** main → thread (its workerData): the roots to walk and the patterns of files never read. */
export interface ScanRequest {
  roots: SourceRoot[];
  exclude: string[] | undefined;
  archiveDir?: string;
  /**
   * Started before the library (scan-prestart.ts): `roots` are as configured, and the thread resolves them as the
   * engine's library does (the machine's roots that exist, with those imported into `dataDir`) and names the archive
   * folder (unless `archive` is false).
   */
  configured?: { dataDir: string; archive: boolean };
}

/** thread → main, first: every root's accepted files with their state (and archive entry names), or why not; its log lines. */
export interface ScanReply {
  /** What was walked, for a walk started before the library (ScanRequest.configured). */
  walked?: { roots: SourceRoot[]; archiveDir: string | undefined };
  logs: ['info' | 'warn' | 'error', string][];
  /** The files found, with their archive entries' names where the thread had the archive's folder (scan-packed.ts). */
  packed?: PackedScan;
  error?: string;
}

/** thread → main, second (where it named the entries): the archive's entries no file it found names (null: not listed). */
export interface UnnamedEntriesReply {
  unnamed: string[] | null;
}

/** thread → main, last (where it named the entries): each entry's state, in the files' order (scan-packed.ts). */
export interface EntryStatesReply {
  entryStates: Float64Array;
}

/**
 * `scanRoots` of `roots` on a thread, the files read those `transcriptTest(exclude)` takes; their entries in `archiveDir`
 * named at once and stated after (`Scan.entries`). `fresh`: walked now, never the walk `serve` started (a comparison
 * after the load must see the files as they are now).
 */
export function scanAside(roots: readonly SourceRoot[], exclude: string[] | undefined, logger: Logger, archiveDir?: string, fresh = false): Promise<Scan> {
  const here = (why: string): Promise<Scan> => {
    logger.info(`the roots are walked on the main thread: ${why}`);
    return scanRoots(roots, logger, transcriptTest(exclude));
  };
  const script = scanWorkerScript();
  if (!script) return here('no scanning thread beside the bundle');
  const walked = async (): Promise<Scan> => {
    const early = fresh ? undefined : await prestarted(roots, exclude, archiveDir, logger);
    if (early) return early;
    const walk = walkOnThread(script, { roots: [...roots], exclude, archiveDir });
    const reply = await walk.reply;
    for (const [level, message] of reply.logs) logger[level](message);
    if (!reply.packed) return here(reply.error || 'the scanning thread failed');
    return unpackScan(reply.packed, walk);
  };
  return walked().catch((err: unknown) => here(String(err)));
}

/**
 * The walk `serve` started before the library loaded (scan-prestart.ts), when it walked the library's roots: completed
 * with the roots added since, walked here (a workspace's SpecStory and Aider histories, which the command that started
 * the engine registered). Undefined when there was none, or it walked a root the library no longer has.
 */
async function prestarted(
  roots: readonly SourceRoot[],
  exclude: string[] | undefined,
  archiveDir: string | undefined,
  logger: Logger,
): Promise<Scan | undefined> {
  const early = await takePrestarted(exclude, archiveDir);
  if (!early) return undefined;
  const reply = await early.reply;
  if (!reply.packed || !reply.walked) return undefined;
  const key = (r: SourceRoot): string => `${r.source}\0${r.path}`;
  const wanted = new Set(roots.map(key));
  if (!reply.walked.roots.every((r) => wanted.has(key(r)))) return undefined;
  for (const [level, message] of reply.logs) logger[level](message);
  const walked = new Set(reply.walked.roots.map(key));
  const rest = roots.filter((r) => !walked.has(key(r)));
  const more = rest.length ? (await scanRoots(rest, logger, transcriptTest(exclude))).plan : [];
  const scan = unpackScan(reply.packed, early);
  const files = new Map([...scan.plan, ...more].map(({ root, files }) => [key(root), files]));
  logger.info(`the roots were walked from the engine's start${rest.length ? ` (and ${rest.length} added since, here)` : ''}`);
  // (in the library's order and with its own root objects, as a walk of `roots` gives them; the added roots' archive
  // entries are named and stated by the library, as for a walk without the archive's folder)
  const plan = roots.map((root) => ({ root, files: files.get(key(root))! }));
  return { ...scan, plan, seen: rest.length ? scanOf(plan).seen : scan.seen };
}
