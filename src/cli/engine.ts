/**
 * Where a CLI command's answers come from: the data folder's resident engine (started if none runs, so that the
 * next command finds the index warm), or this process when no engine can serve (the reason is logged with --verbose).
 */
import { inProcess, type Engine } from '../engine/api.js';
import { engineEntry, openEngine, type EngineClientOptions } from '../engine/client.js';
import type { SessionLibrary } from '../core/library.js';
import { stderrLogger } from '../core/log.js';
import { ENGINE_VERSION } from '../version.js';
import type { CliOptions } from './args.js';
import { waitNotice } from './output.js';

/** Engines this command connected to: let go of before the process ends. */
export const connected: Engine[] = [];

/** What a command asks of the data folder's engine: its folders and settings, and answers over every session unless --partial. */
export function engineClientOptions(options: CliOptions, teamDb?: string): EngineClientOptions {
  return {
    roots: options.roots,
    dataDir: options.dataDir,
    archive: options.archive,
    exclude: options.exclude,
    maxFileBytes: options.maxFileBytes,
    teamDb,
    machine: options.machine,
    version: ENGINE_VERSION,
    entry: engineEntry(),
    // without --partial a command answers over every session, as in process
    complete: !options.partial,
    embed: options.embed,
  };
}

/** Why no engine answers this command, when the quick entry (quick.ts) already asked before it loaded the full CLI. */
const NO_ENGINE = Symbol.for('session-search.cli.no-engine');
export function tellNoEngine(reason: string): void {
  (globalThis as Record<symbol, unknown>)[NO_ENGINE] = reason;
}

export async function openAnswers(
  options: CliOptions,
  openLibrary: (options: CliOptions) => Promise<SessionLibrary>,
): Promise<{ engine: Engine; library?: SessionLibrary }> {
  // (the team module, and the PostgreSQL driver with it, load only for --team)
  const teamDb = options.team ? (await import('../core/team/connection.js')).teamUrl(options.db, process.env) : undefined;
  const known = (globalThis as Record<symbol, unknown>)[NO_ENGINE];
  const opened = typeof known === 'string' ? { reason: known } : await openEngine(engineClientOptions(options, teamDb));
  if ('engine' in opened) return { engine: engineAnswers(opened.engine, options) };
  stderrLogger(options.verbose).info(`answering in this process: ${opened.reason}`);
  const library = await openLibrary(options);
  const team = options.team ? (await import('./team.js')).teamRef(options) : undefined;
  const engine = inProcess(library, { team, reason: opened.reason });
  connected.push(engine);
  return { engine, library };
}

/** The engine as this command uses it (progress and Ctrl-C while it indexes, unless --partial), let go of at its end. */
export function engineAnswers(remote: Engine, options: CliOptions): Engine {
  const engine = options.partial ? remote : whileIndexing(remote, options);
  connected.push(engine);
  return engine;
}

/**
 * An engine asked for complete answers while its first load runs: the load's progress on a terminal, and Ctrl-C ends
 * the command (exit 130) while the engine goes on indexing for the next one.
 */
function whileIndexing(engine: Engine, options: CliOptions): Engine {
  const showProgress = process.stderr.isTTY && !options.json && !options.toon;
  const notice = waitNotice('Ctrl-C ends this command, and the engine goes on');
  let shown = false;
  const timer = setInterval(() => {
    void engine.status().then(
      (s) => {
        if (s.complete) return;
        if (!showProgress) return notice(s.filesDone, s.filesTotal);
        shown = true;
        process.stderr.write(
          `\rindexing ${s.filesDone}/${s.filesTotal} files, ${(s.bytesDone / 1048576).toFixed(1)}/${(s.bytesTotal / 1048576).toFixed(1)} MB (Ctrl-C ends this command; the engine goes on)…`,
        );
      },
      () => undefined,
    );
  }, 200);
  timer.unref();
  const onInterrupt = (): void => {
    void engine
      .status()
      .then(
        (s) =>
          `indexing goes on in the engine: ${s.filesDone} of ${s.filesTotal} files read so far; the next command answers over what is indexed by then (--partial answers at once)`,
        () => 'interrupted',
      )
      .then((message) => {
        process.stderr.write(`${shown ? '\r\x1b[K' : ''}session-search: ${message}\n`);
        process.exit(130);
      });
  };
  process.once('SIGINT', onInterrupt);
  // the progress line goes before the answer is printed
  const settle = (): void => {
    clearInterval(timer);
    process.removeListener('SIGINT', onInterrupt);
    if (shown) process.stderr.write('\r\x1b[K');
    shown = false;
  };
  return {
    ...engine,
    search: (query, searchOptions) => engine.search(query, searchOptions).finally(settle),
    list: (listOptions) => engine.list(listOptions).finally(settle),
    close: async () => {
      settle();
      await engine.close();
    },
  };
}
