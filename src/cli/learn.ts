/**
 * Meaning for the command line too. A command answers at once and ends, too soon for the semantic model to be learned
 * in its process; so when the data folder has no model yet, the command that found out starts `session-search learn`
 * on its own, detached (no terminal, no output), and ends without waiting. That process loads the data folder (the
 * snapshot just written), learns the model, writes it beside the snapshot and ends; from then on every command ranks by
 * meaning. One learner per data folder at a time (`semantic.learning` holds its pid); none is started by a learner.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionLibrary } from '../core/library.js';
import type { CliOptions } from './args.js';
import { running } from '../core/store/running.js';

/** Set in the learner's environment: it never starts another. */
const LEARNER_ENV = 'SESSION_SEARCH_LEARNER';
/** Sessions below which no model is learned (the semantic leg's own minimum). */
const MIN_SESSIONS = 20;

const markerOf = (dataDir: string): string => join(dataDir, 'semantic.learning');

/** Whether a learner runs for this data folder now. */
function learning(dataDir: string): boolean {
  try {
    const pid = Number(readFileSync(markerOf(dataDir), 'utf8'));
    return Number.isInteger(pid) && pid > 0 && running(pid);
  } catch {
    return false;
  }
}

/** The arguments that choose the same history and data folder for the learner. */
function sameHistory(options: CliOptions): string[] {
  const args = ['learn'];
  if (options.dataDir) args.push('--data', options.dataDir);
  if (options.rootsGiven) args.push('--no-default-roots', ...options.roots.flatMap((r) => ['--root', `${r.source}=${r.path}`]));
  if (!options.archive) args.push('--no-archive');
  return args;
}

/**
 * Starts the learner when this command's library has no model, could learn one, and none is being learned; returns
 * whether it did. The command does not wait for it.
 */
export function learnInBackground(library: SessionLibrary, options: CliOptions): boolean {
  const dataDir = options.dataDir;
  if (!dataDir || process.env[LEARNER_ENV] || !existsSync(dataDir)) return false;
  // (a data folder that cannot be written cannot keep a model: a learner would learn it for nothing, every time)
  const status = library.status();
  if (library.semanticState().status === 'ready' || status.storage || status.sessions < MIN_SESSIONS || learning(dataDir)) return false;
  const script = process.argv[1];
  if (!script) return false;
  try {
    const child = spawn(process.execPath, [script, ...sameHistory(options)], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, [LEARNER_ENV]: '1' },
    });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** `session-search learn`: learns the model that ranks by meaning for this data folder, writes it, and ends. */
export async function learnNow(library: SessionLibrary, options: CliOptions): Promise<{ status: string; sessions: number }> {
  const marker = options.dataDir && markerOf(options.dataDir);
  if (marker)
    try {
      writeFileSync(marker, String(process.pid), { mode: 0o600 });
    } catch {
      return { status: 'not learned: the data folder cannot be written', sessions: library.status().sessions };
    }
  try {
    await library.semanticSettled();
    return { status: library.semanticState().status, sessions: library.status().sessions };
  } finally {
    if (marker) rmSync(marker, { force: true });
  }
}
