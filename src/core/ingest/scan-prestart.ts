/**
 * The walk of the roots, started by `session-search serve` before the engine's modules load. On a large history the
 * walking thread (scan-worker.ts) then boots and walks while the main thread loads the library and restores the
 * snapshot, instead of starting once the library asks for the walk. scanAside takes this walk when the library asks for
 * the same roots, archive folder and exclude patterns; for anything else it walks again. Only node's own modules and
 * small ones are loaded here, so starting it costs the engine's start next to nothing.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorker, threadScript } from '../threads.js';
import { SCAN_ASIDE_MIN_BYTES } from '../library/options.js';
import { snapshotFile } from '../store/index-files.js';
import type { SourceRoot } from './sources/registry.js';
import type { EntryStatesReply, ScanReply, ScanRequest, UnnamedEntriesReply } from './scan-aside.js';

/**
 * The walking thread's young generation, kept small: what it keeps (a state per file) is small, what it makes and drops
 * (a node `Stats` per file stated) is not, and a young generation left to grow to V8's default took memory first
 * touched at every step, on two cores that the restore needs too. At 10,000 sessions the engine's CPU to "indexed" fell
 * by about 55 ms (median of 10 alternating starts) and its walk ended about 35 ms sooner.
 */
export const SCAN_THREAD_LIMITS = { maxYoungGenerationSizeMb: 4 };

/** A walk no library took within this long is let go. */
const UNTAKEN_MS = 60_000;

/** The walking thread's script beside the bundle (or the module, from source); undefined where there is none. */
export function scanWorkerScript(): string | undefined {
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  return threadScript(here, 'scan-worker');
}

/**
 * A walk on a thread of its own: its first reply (the files), then the archive's entries its files do not name, then the
 * entries' states (none of the last two: no archive folder, or the thread ended first).
 */
export interface ThreadWalk {
  reply: Promise<ScanReply>;
  unnamed: Promise<string[] | undefined>;
  entryStates: Promise<Float64Array | undefined>;
}

/** Starts the walking thread; it ends after its last reply (or when it fails, which its first reply then says). */
export function walkOnThread(script: string, request: ScanRequest): ThreadWalk {
  const worker = startWorker(script, request, SCAN_THREAD_LIMITS);
  let first!: (reply: ScanReply) => void;
  let second!: (names: string[] | undefined) => void;
  let last!: (states: Float64Array | undefined) => void;
  const reply = new Promise<ScanReply>((resolve) => (first = resolve));
  const unnamed = new Promise<string[] | undefined>((resolve) => (second = resolve));
  const entryStates = new Promise<Float64Array | undefined>((resolve) => (last = resolve));
  const end = (error: string): void => {
    first({ logs: [], error });
    second(undefined);
    last(undefined);
    void worker.terminate();
  };
  // (each promise settles once: what comes after the replies, or instead of them, only ends the thread)
  worker.on('message', (message: ScanReply | UnnamedEntriesReply | EntryStatesReply) => {
    if ('unnamed' in message) return second(message.unnamed ?? undefined);
    if ('entryStates' in message) {
      last(message.entryStates);
      return end('');
    }
    first(message);
    // (the entries' states follow only where the thread named the entries)
    if (message.packed?.entryNames === undefined) end('');
  });
  worker.once('error', (err) => end(`the scanning thread failed: ${String(err)}`));
  worker.once('exit', (code) => end(`the scanning thread exited with code ${code}`));
  return { reply, unnamed, entryStates };
}

/** The walk started early, until a library takes it (or asks for another one). */
let started: { exclude: string[] | undefined; walk: ThreadWalk } | undefined;

/**
 * Starts the walk of `roots` (as configured: the thread resolves them as the library will) for a data folder whose
 * snapshot is large enough for the library to walk on a thread of its own; nothing otherwise. Never fails: where no
 * thread can start, the library walks as before.
 */
export function prestartScan(options: { roots: SourceRoot[]; dataDir: string; archive: boolean | undefined; exclude: string[] | undefined }): void {
  const request: ScanRequest = {
    roots: options.roots,
    exclude: options.exclude,
    configured: { dataDir: options.dataDir, archive: options.archive !== false },
  };
  try {
    const script = scanWorkerScript();
    if (!script || (statSync(snapshotFile(options.dataDir), { throwIfNoEntry: false })?.size ?? 0) < SCAN_ASIDE_MIN_BYTES) return;
    // (a walk nobody takes ends with its thread, once it has walked: the thread ends after its last reply)
    const walk = walkOnThread(script, request);
    const early = { exclude: options.exclude, walk };
    started = early;
    // (let go of, with the files it found, if no library asks for it soon)
    setTimeout(() => {
      if (started === early) started = undefined;
    }, UNTAKEN_MS).unref();
  } catch {
    started = undefined;
  }
}

/**
 * The walk started early, when it named `archiveDir` and used `exclude`; undefined when none was started, it failed, or
 * it used other settings. Which roots it walked is in the reply (`walked`). Taken once: a later walk (a rebuild, a root
 * added) walks anew.
 */
export async function takePrestarted(exclude: string[] | undefined, archiveDir: string | undefined): Promise<ThreadWalk | undefined> {
  const early = started;
  started = undefined;
  if (!early || JSON.stringify(early.exclude) !== JSON.stringify(exclude)) return undefined;
  const reply = await early.walk.reply;
  return reply.walked?.archiveDir === archiveDir ? early.walk : undefined;
}
