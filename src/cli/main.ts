/**
 * `session-search`, the full command line (dist/cli.js): every command, answered by the data folder's engine or in this
 * process. The quick entry (quick.ts, dist/cli-main.cjs, run by dist/cli.cjs) answers the engine's commands without
 * loading this, and loads it for the rest. `serve` runs the engine here too; the clients start it from its own bundle
 * (engine/start.ts).
 */
import type { SessionLibrary } from '../core/library.js';
import { stderrLogger } from '../core/log.js';
import { parseCli, readingOptions, UsageError, USAGE, type CliOptions } from './args.js';
import { commandHelp } from './help.js';
import { renderGet } from './render.js';
import { connected, openAnswers } from './engine.js';
import { ANSWERED, answerCommand, checkArguments } from './answered.js';
import { Interrupted, print, quietOnBrokenPipe, settle, useToon, waitNotice } from './output.js';

/** Libraries opened by this command: closed (snapshot written, writer lock released) before the process ends. */
const opened: SessionLibrary[] = [];
/** Loads still running behind a --partial answer: stopped (what was read is kept) before the libraries close. */
const running: { stop: AbortController; done: Promise<void> }[] = [];

async function openLibrary(options: CliOptions): Promise<SessionLibrary> {
  const logger = stderrLogger(options.verbose);
  const { roots, dataDir, archive, exclude, maxFileBytes, embed } = options;
  // (the library loads only for a command answered in this process: one the engine answers never reads it)
  const { createLibrary } = await import('../core/library.js');
  const library = createLibrary({ roots, logger, dataDir, archive, exclude, maxFileBytes, embed });
  opened.push(library);
  const showProgress = process.stderr.isTTY && !options.json && !options.toon;
  let last = 0;
  let progress = { files: 0, totalFiles: 0 };
  // Ctrl-C while indexing stops between files and keeps what was read (archive and snapshot) for the next run.
  const stop = new AbortController();
  if (options.partial) {
    // answer from what is indexed so far; the load goes on until the answer is printed, and is kept for next time
    running.push({ stop, done: library.load(undefined, stop.signal) });
    // once it is known what is left to read, so that the answer says how much it covers
    await library.untilCounted();
    return library;
  }
  const onInterrupt = (): void => stop.abort();
  process.once('SIGINT', onInterrupt);
  try {
    const notice = waitNotice('Ctrl-C stops it and keeps what is read');
    await library.load((p) => {
      progress = p;
      if (!showProgress) notice(p.files, p.totalFiles);
      else if (Date.now() - last > 100) {
        last = Date.now();
        process.stderr.write(
          `\rindexing ${p.files}/${p.totalFiles} files, ${(p.bytes / 1048576).toFixed(1)}/${(p.totalBytes / 1048576).toFixed(1)} MB (Ctrl-C stops and keeps what is read)…`,
        );
      }
    }, stop.signal);
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
  if (showProgress && last) process.stderr.write('\r\x1b[K');
  if (stop.signal.aborted)
    throw new Interrupted(`indexing stopped after ${progress.files} of ${progress.totalFiles} files; what was read is kept and the rest is read next time`);
  return library;
}

quietOnBrokenPipe();

async function run(argv: string[]): Promise<number> {
  const options = parseCli(argv, process.env);
  if (options.version) {
    process.stdout.write((await import('../version.js')).versionLine());
    return 0;
  }
  if (options.help || !options.command) {
    process.stdout.write((options.help && commandHelp(options.command)) || USAGE);
    return options.help ? 0 : 2;
  }
  // (TOON's encoder loads only for --toon: every command's start counts)
  if (options.toon) {
    const { render } = await import('../core/format.js');
    useToon((value) => render(value, 'toon').text);
  }
  checkArguments(options);
  if (ANSWERED.has(options.command)) {
    const name = options.positionals[0];
    if (options.command === 'get' && !options.team && (await import('../core/team/id.js')).isTeamId(name)) {
      const { teamArchive } = await import('./team.js');
      const team = teamArchive(options);
      const response = await team.get(name, options.toon ? 'toon' : 'json').finally(() => team.close());
      print(options, response, () => renderGet(response));
      return 0;
    }
    const { engine, library } = await openAnswers(options, openLibrary);
    const code = await answerCommand(options, engine);
    // in process with no model to rank by meaning yet: one is learned in the background for the next searches (an
    // engine learns its own once its load is over)
    if (options.command === 'search' && library) {
      const { learnInBackground } = await import('./learn.js');
      if (learnInBackground(library, options)) stderrLogger(options.verbose).info('learning the model that ranks by meaning in the background');
    }
    return code;
  }
  switch (options.command) {
    case 'learn': {
      const { learnNow } = await import('./learn.js');
      const value = await learnNow(await openLibrary(options), options);
      print(options, value, () =>
        value.status === 'ready'
          ? `Learned the model over ${value.sessions} sessions.\n`
          : `No model learned: ${value.sessions} sessions (at least 20 are needed).\n`,
      );
      return 0;
    }
    case 'team': {
      const { teamCommand } = await import('./team.js');
      await teamCommand(
        options,
        () => openLibrary(options),
        (o) => print(options, o.value, () => o.text),
      );
      return 0;
    }
    case 'archive': {
      const { Archive } = await import('../core/store/archive.js');
      const archive = new Archive(options.dataDir, stderrLogger(options.verbose));
      const action = options.positionals[0] ?? 'size';
      if (action === 'purge') {
        // the engine lets go of the data folder first (its index holds what is purged): the next command starts a new one
        await (await import('../engine/client.js')).handOver(options.dataDir);
        await archive.purge();
        const { Persistence } = await import('../core/store/persistence.js');
        await Persistence.discard(options.dataDir);
        process.stdout.write(`Removed the archive in ${archive.dir} and the index snapshot; the next run reads the transcripts again.\n`);
        return 0;
      }
      if (action !== 'size') throw new UsageError(`archive takes "size" or "purge", got "${action}".`);
      const size = await archive.size();
      const { Persistence } = await import('../core/store/persistence.js');
      const snapshotBytes = await Persistence.snapshotBytes(options.dataDir);
      print(
        options,
        { success: true, dir: archive.dir, ...size, snapshotBytes },
        () =>
          `${archive.dir}: ${size.entries} transcript files, ${(size.bytes / 1048576).toFixed(1)} MB; index snapshot ${(snapshotBytes / 1048576).toFixed(1)} MB\n`,
      );
      return 0;
    }
    case 'import': {
      const path = options.positionals[0];
      if (!path) throw new UsageError('import needs an export file or folder, e.g. session-search import ~/Downloads/chatgpt-export/conversations.json');
      const { importExports } = await import('./sources.js');
      const { text, value } = await importExports(options.dataDir, path);
      if (value.added.length) {
        // an engine reads the folders it started with: it lets go, and the next command starts one reading the exports
        await (await import('../engine/client.js')).handOver(options.dataDir);
        const library = await openLibrary(options);
        const counts = value.added.map((r) => library.countSessions({ files: [r.path] }));
        print(
          options,
          { success: true, ...value, sessions: counts },
          () =>
            `${text}${counts
              .map(
                (n, i) => `  ${value.added[i].path}: ${n ? `${n} session${n === 1 ? '' : 's'}` : 'no conversation in it (nothing to search; see --verbose)'}`,
              )
              .join('\n')}\n`,
        );
      } else print(options, { success: true, ...value }, () => text);
      return 0;
    }
    case 'mcp-config': {
      const { mcpConfig } = await import('./mcp-config.js');
      process.stdout.write(mcpConfig(import.meta.url, options.rootsGiven ? options.roots : undefined, process.execPath));
      return 0;
    }
    case 'mcp': {
      const { runStdioServer } = await import('../mcp/run.js');
      const { teamUrl } = await import('../core/team/connection.js');
      await runStdioServer({
        ...readingOptions(options),
        teamDb: teamUrl(options.db, process.env),
        machine: options.machine,
        embed: options.embed,
      });
      return -1;
    }
    case 'engine': {
      const { engineCommand } = await import('./engine-command.js');
      const { value, text, code } = await engineCommand(options);
      print(options, value, () => text);
      return code;
    }
    case 'serve': {
      const { runServe } = await import('../engine/serve-command.js');
      await runServe(options);
      return 0;
    }
    default:
      throw new UsageError(`Unknown command "${options.command}".`);
  }
}

void settle(run(process.argv.slice(2)), async () => {
  for (const { stop } of running) stop.abort();
  await Promise.all(running.map((r) => r.done));
  await Promise.all(opened.map((l) => l.close()));
  await Promise.all(connected.map((e) => e.close()));
});
