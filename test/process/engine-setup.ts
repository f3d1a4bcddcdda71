/** What the engine's process tests share: a data folder over the sample CodeArchitect sessions, its CLI, and its engine. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../eventually.js';
import { CORPUS, ROOT, tempDir } from '../helpers.js';
import { running } from '../../src/core/store/running.js';

/** A home folder with no tool's history: only the roots a test names are read. */
export const HOME_DIR = tempDir();

export type Cli = (args: string[], env?: NodeJS.ProcessEnv) => { code: number | null; stdout: string; stderr: string };

/** A new data folder, its roots (`source=path`; the CodeArchitect sample unless given), and the built CLI run on them. */
export function setup(roots: string[] = [`codearchitect=${join(CORPUS, 'codearchitect', 'sessions')}`]): { data: string; root: string; cli: Cli } {
  const data = tempDir();
  const root = roots[0];
  const cli: Cli = (args, env = {}) => {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args, ...roots.flatMap((r) => ['--root', r]), '--data', data], {
      encoding: 'utf8',
      env: { ...process.env, HOME: HOME_DIR, ...env },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { data, root, cli };
}

export const enginePid = (data: string): number => Number(readFileSync(join(data, 'engine', 'pid'), 'utf8'));

export async function stopEngine(data: string): Promise<void> {
  if (!existsSync(join(data, 'engine', 'pid'))) return;
  const pid = enginePid(data);
  if (running(pid)) process.kill(pid, 'SIGTERM');
  // (it writes its snapshot first: on a busy machine that takes a while)
  await eventually(() => !running(pid), `engine ${pid} stopped`, { timeoutMs: 60_000 });
}
