/**
 * A thread that walks the roots and states their transcript files (`scanRoots`) while the main thread restores the
 * snapshot: a warm start's two longest steps at once; then, in a second message, states each file's archive entry. Its
 * messages are typed in scan-aside.ts.
 */
import { readdirSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { transcriptTest } from './exclude.js';
import { scanPlan } from './file-state.js';
import { packEntryStates, packScan, type EntryState, type PackedWalk } from './scan-packed.js';
import { archiveFolder, entryFileName } from '../store/entry-name.js';
import { resolveConfiguredRoots } from '../library/added-roots.js';
import { splitRoots } from './sources/default-roots.js';
import type { EntryStatesReply, ScanReply, ScanRequest, UnnamedEntriesReply } from './scan-aside.js';

const port = parentPort;
if (port) {
  const request = workerData as ScanRequest;
  const logs: ScanReply['logs'] = [];
  const logger: Logger = {
    info: (message) => logs.push(['info', message]),
    warn: (message) => logs.push(['warn', message]),
    error: (message) => logs.push(['error', message]),
  };
  walk(request, logger).then(
    ({ walked, packed, archiveDir }) => {
      port.postMessage({ logs, walked, packed: packed.packed } satisfies ScanReply);
      // then the archive's entries no file names (for the load's look for sessions only the archive holds), and last
      // the entries' states (for the check after the load): after the files, so that the load need not wait for them
      if (!archiveDir || !packed.names) return;
      port.postMessage({ unnamed: unnamedEntries(archiveDir, packed.names) } satisfies UnnamedEntriesReply);
      port.postMessage({ entryStates: packEntryStates(packed, entryState(archiveDir)) } satisfies EntryStatesReply);
    },
    (err: unknown) => port.postMessage({ logs, error: errorMessage(err) } satisfies ScanReply),
  );
}

async function walk(request: ScanRequest, logger: Logger): Promise<{ walked: ScanReply['walked']; packed: PackedWalk; archiveDir: string | undefined }> {
  let { roots, archiveDir } = request;
  let walked: ScanReply['walked'];
  if (request.configured) {
    // as the engine's library resolves its roots (engine/serve.ts, library/loader.ts), which logs what is missing itself
    const { dataDir, archive } = request.configured;
    const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    roots = (await resolveConfiguredRoots({ roots: splitRoots(roots).machine, dataDir }, quiet)).found;
    archiveDir = archive ? archiveFolder(dataDir) : undefined;
    walked = { roots, archiveDir };
  }
  const plan = await scanPlan(roots, logger, transcriptTest(request.exclude));
  return { walked, packed: packScan(plan, archiveDir ? entryFileName : undefined), archiveDir };
}

/** The names in the archive's folder that none of the files found names as its entry; null where it cannot be listed. */
function unnamedEntries(dir: string, names: string[]): string[] | null {
  let listed: string[];
  try {
    listed = readdirSync(dir);
  } catch (err) {
    // (no archive yet: nothing in it; otherwise the library lists it itself)
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? [] : null;
  }
  const named = new Set(names);
  return listed.filter((name) => !named.has(name));
}

/** A file's archive entry's state (size -1: none); undefined where it cannot be stated. */
function entryState(dir: string): (file: string, name: string) => EntryState {
  return (_file, name) => {
    try {
      const info = statSync(`${dir}${sep}${name}`, { throwIfNoEntry: false });
      return info ? [info.size, info.mtimeMs] : [-1, 0];
    } catch {
      return undefined; // (the main thread states it again)
    }
  };
}
