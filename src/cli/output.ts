/**
 * How every command prints: a response object as JSON or TOON when asked (--json, --toon), otherwise text for people;
 * and how a command's end becomes the exit status (0 done, 1 failure, 2 usage, 130 Ctrl-C during indexing).
 */
import { errorCode, errorMessage, SessionSearchError } from '../core/errors.js';
import type { CliOptions } from './args.js';
import { UsageError } from './args.js';
import { grouped } from '../core/digits.js';

const USAGE_CODES = new Set(['Search query is required', 'INVALID_DATE', 'INVALID_ARGUMENT']);

/** Ctrl-C during indexing in this process: exit 130, after the library was closed (what was read is kept). */
export class Interrupted extends Error {}

/** Set once a command asks for --toon (TOON's encoder loads only then: every command's start counts). */
let toonText: ((value: unknown) => string) | undefined;
export function useToon(render: (value: unknown) => string): void {
  toonText = render;
}

export function print(options: CliOptions, value: unknown, human: () => string): void {
  // a data folder that cannot be kept: said on stderr whatever the output's format (the answer holds it too)
  const storage = (value as { storage?: { detail: string; advice: string } } | null)?.storage;
  if (storage) process.stderr.write(`session-search: ${storage.detail}; ${storage.advice}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (options.toon && toonText) process.stdout.write(`${toonText(value)}\n`);
  else process.stdout.write(human());
}

/** `session-search get … | head`: the reader went away; end quietly instead of with a stack trace. */
export function quietOnBrokenPipe(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });
}

/**
 * Ends a command answered by the engine once what it printed is out (a pipe may take it later on some systems): left to
 * end by itself, node first gives back its heap and every handle (about 4 ms of a 170 ms search, measured).
 */
export async function exitWhenWritten(): Promise<never> {
  const written = (stream: NodeJS.WriteStream): Promise<unknown> | undefined =>
    stream.writableLength > 0 && !stream.destroyed ? new Promise((resolve) => stream.write('', resolve)) : undefined;
  await Promise.all([written(process.stdout), written(process.stderr)]);
  process.exit();
}

/** Runs a command to its end: `cleanup` first whatever happened, then its exit status, or its error said on stderr. */
export async function settle(run: Promise<number>, cleanup: () => Promise<void>): Promise<void> {
  let code: number;
  try {
    code = await run.finally(cleanup);
  } catch (err) {
    // TeamError (core/team/connection.ts), by name: the PostgreSQL driver loads only for team commands
    const team = err instanceof Error && err.name === 'TeamError';
    if (err instanceof Interrupted || team) {
      process.stderr.write(`session-search: ${(err as Error).message}\n`);
      process.exitCode = team ? 1 : 130;
    } else if (err instanceof UsageError || (err instanceof SessionSearchError && USAGE_CODES.has(err.code))) {
      process.stderr.write(`session-search: ${errorMessage(err)}\nRun session-search --help for usage.\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`session-search: ${errorCode(err)}: ${errorMessage(err)}\n`);
      process.exitCode = 1;
    }
    return;
  }
  // (a server command resolves with -1: it ends when its input does)
  if (code >= 0) process.exitCode = code;
}

/** How long a command waits for a load before it says so where it shows no progress line (ms). */
export const WAIT_NOTICE_MS = 2_000;

/**
 * Where a command shows no progress line (its standard error is not a terminal, as when a script or an agent's shell
 * runs it, or --json and --toon were asked): one line, once, when it has waited WAIT_NOTICE_MS for a load, so that
 * whoever runs it knows why it waits (a first load reads a large history for minutes). Told (files read, files to read)
 * as the load goes. SESSION_SEARCH_WAIT_NOTICE_MS sets the wait (tests).
 */
export function waitNotice(ifInterrupted: string, env: NodeJS.ProcessEnv = process.env): (done: number, total: number) => void {
  const set = Number(env.SESSION_SEARCH_WAIT_NOTICE_MS || NaN);
  const afterMs = Number.isFinite(set) && set >= 0 ? set : WAIT_NOTICE_MS; // (a wrong value: the default)
  const started = Date.now();
  let said = false;
  return (done, total) => {
    if (said || done >= total || Date.now() - started < afterMs) return;
    said = true;
    process.stderr.write(
      `session-search: waiting for the index: ${grouped(done)} of ${grouped(total)} files read so far; ` +
        `the answer comes when every one is (--partial answers at once from what is read; ${ifInterrupted})\n`,
    );
  };
}
