/**
 * `session-search`'s command line (dist/cli-main.cjs, one CommonJS file, run by dist/cli.cjs from V8's code cache:
 * start.ts): a command the data folder's engine answers (ANSWERED in answered.ts: search, get, list, files, tags,
 * resume, export, sources…) is answered here with only the engine's client loaded. Every other command, and one no engine can serve (then in
 * process), is handed to the full CLI (main.ts, dist/cli.js), loaded only then, with the reason no engine serves it so
 * that it does not ask again. One CommonJS file starts sooner than the ES modules of the full CLI (about twenty files,
 * each resolved and linked in turn): at 10,000 sessions a search took 104 ms at the median instead of 121, with node's
 * own start at 62.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openEngine } from '../engine/client.js';
import { isTeamId } from '../core/team/id.js';
import { parseCli, type CliOptions } from './args.js';
import { ANSWERED, answerCommand, checkArguments } from './answered.js';
import { connected, engineAnswers, engineClientOptions, tellNoEngine } from './engine.js';
import { exitWhenWritten, quietOnBrokenPipe, settle } from './output.js';
import { versionLine } from '../version.js';
import { importFullCli } from './full-cli.js';

/** The command line's options; undefined where they are wrong (the full CLI says what is wrong, as for every command). */
function parsed(argv: string[]): CliOptions | undefined {
  try {
    return parseCli(argv, process.env);
  } catch {
    return undefined;
  }
}

/** Whether this entry answers the command with the engine; the full CLI runs the others. */
function answerable(options: CliOptions): boolean {
  if (!ANSWERED.has(options.command) || options.help || options.toon || options.team) return false;
  return process.env.SESSION_SEARCH_ENGINE !== 'off' && !(options.command === 'get' && isTeamId(options.positionals[0]));
}

async function main(argv: string[]): Promise<void> {
  const options = parsed(argv);
  if (options?.version) return void process.stdout.write(versionLine());
  if (options && answerable(options)) {
    let handOff = false;
    await settle(
      (async () => {
        checkArguments(options);
        const opened = await openEngine(engineClientOptions(options));
        if ('reason' in opened) {
          tellNoEngine(opened.reason);
          handOff = true;
          return -1;
        }
        return answerCommand(options, engineAnswers(opened.engine, options));
      })(),
      async () => void (await Promise.all(connected.map((e) => e.close()))),
    );
    if (!handOff) return exitWhenWritten();
  }
  // (a URL: the full CLI is an ES module beside this file; from source, main.ts beside this one)
  const full = typeof __dirname === 'string' ? join(__dirname, 'cli.js') : join(dirname(fileURLToPath(import.meta.url)), 'main.ts');
  await importFullCli(pathToFileURL(full).href);
}

quietOnBrokenPipe();
void main(process.argv.slice(2));
