/**
 * bench:real's view of the engine, the process that loads and serves the index behind every client by default: an MCP
 * server started as an agent starts it joins (or starts) the engine of its data folder, and what a user's machine pays
 * is the engine's memory and time, not the relay's. Here: the engine's pid, its memory (resident now, and its peak),
 * stopping it as a user does (`session-search engine stop`), and how often its load wrote the snapshot.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { enginePaths } from '../src/engine/paths.js';
import { ROOT } from '../test/helpers.js';

/** The pid of the engine serving `data`, when one runs. */
export function enginePid(data: string): number | undefined {
  try {
    const pid = Number(readFileSync(enginePaths(data).pidFile, 'utf8').trim());
    return pid > 0 && existsSync(`/proc/${pid}`) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** A process's resident memory now and its peak, in MB (0 when it is gone). */
export function memoryOf(pid: number | undefined): { rssMb: number; peakMb: number } {
  if (!pid) return { rssMb: 0, peakMb: 0 };
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return { rssMb: 0, peakMb: 0 };
  }
}

/** Stops the engine of `data` as a user does (it writes its snapshot first), and waits until its process is gone. */
export async function stopEngine(data: string, env: NodeJS.ProcessEnv): Promise<void> {
  const pid = enginePid(data);
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'engine', 'stop', '--data', data], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`engine stop failed: ${r.stderr}`);
  const deadline = Date.now() + 120_000;
  while (pid && existsSync(`/proc/${pid}`) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** How many times the engine of `data` wrote its snapshot, as its log says (the log of this run's engines). */
export function snapshotWrites(data: string): number {
  try {
    return (readFileSync(enginePaths(data).log, 'utf8').match(/snapshot written/g) ?? []).length;
  } catch {
    return 0;
  }
}
