/**
 * Where a CLI command's answers come from: the data folder's resident engine (started if none runs, so that the
 * next command finds the index warm), or this process when no engine can serve (the reason is logged with --verbose).
 */
import { inProcess, type Engine } from '../engine/api.js';
import { engineEntry, openEngine } from '../engine/client.js';
import type { SessionLibrary } from '../core/library.js';
import { stderrLogger } from '../core/log.js';
import { PRODUCT_VERSION } from '../version.js';
import type { CliOptions } from './args.js';

/** Engines this command connected to: let go of before the process ends. */
export const connected: Engine[] = [];

export async function openAnswers(
  options: CliOptions,
  openLibrary: (options: CliOptions) => Promise<SessionLibrary>,
): Promise<{ engine: Engine; library?: SessionLibrary }> {
  const opened = await openEngine({
    roots: options.roots,
    dataDir: options.dataDir,
    archive: options.archive,
    // (the team module, and the PostgreSQL driver with it, load only for --team)
    teamDb: options.team ? (await import('../core/team/connection.js')).teamUrl(options.db, process.env) : undefined,
    machine: options.machine,
    version: PRODUCT_VERSION,
    entry: engineEntry(),
    // without --partial a command answers over every session, as in process
    complete: !options.partial,
  });
  if ('engine' in opened) {
    connected.push(opened.engine);
    return { engine: opened.engine };
  }
  stderrLogger(options.verbose).info(`answering in this process: ${opened.reason}`);
  const library = await openLibrary(options);
  const team = options.team ? (await import('./team.js')).teamArchive(options) : undefined;
  const engine = inProcess(library, { team, reason: opened.reason, close: async () => team?.close() });
  connected.push(engine);
  return { engine, library };
}
