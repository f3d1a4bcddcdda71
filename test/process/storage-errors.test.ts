/**
 * A data folder that cannot be written is said where the user looks, and costs nothing more than memory: the command's
 * answer is right and carries `storage`, stderr says what happened and what to do, `engine status` says it, and the
 * engine (its socket in a private folder of the temp dir) keeps the index for the next command, which reads nothing
 * again. Run as another user where the tests run as root (root may write any folder).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CORPUS, ROOT, tempDir } from '../helpers.js';
import { eventually } from '../eventually.js';
import { running } from '../../src/core/store/running.js';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

function cli(data: string, home: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'dist', 'cli.cjs'), ...args, '--root', `codearchitect=${join(CORPUS, 'codearchitect', 'sessions')}`, '--data', data],
    { encoding: 'utf8', env: { ...process.env, HOME: home, TMPDIR: '/tmp' }, cwd: home, ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a data folder that cannot be written: answers right, said in the answer, on stderr and in engine status; the engine keeps the index', async () => {
  const base = tempDir();
  chmodSync(base, 0o755);
  const home = join(base, 'home');
  const data = join(base, 'data');
  mkdirSync(home);
  mkdirSync(data);
  if (asRoot) for (const dir of [home, data]) chownSync(dir, NOBODY, NOBODY);
  chmodSync(data, 0o500); // readable, not writable
  let pid: number | undefined;
  try {
    const first = cli(data, home, ['search', 'repo', 'map', '--json']);
    assert.equal(first.code, 0, first.stderr);
    const answer = JSON.parse(first.stdout) as { count: number; storage?: { problem: string; advice: string }; indexing?: unknown };
    assert.ok(answer.count > 0, 'the answer is right');
    assert.equal(answer.storage?.problem, 'unwritable');
    assert.match(answer.storage!.advice, /nothing is kept/);
    assert.match(
      first.stderr,
      /session-search: the data folder .*data cannot be written by this user .*EACCES.*; answers are right, but nothing is kept.*--data DIR/,
    );
    const status = JSON.parse(cli(data, home, ['engine', 'status', '--json']).stdout) as {
      running: boolean;
      pid: number;
      log: string;
      status: { storage?: { problem: string } };
    };
    assert.equal(status.running, true, 'an engine runs for the folder');
    pid = status.pid;
    assert.equal(status.status.storage?.problem, 'unwritable');
    assert.ok(!status.log.startsWith(data), `its log is not in the unwritable folder: ${status.log}`);
    assert.match(cli(data, home, ['engine', 'status']).stdout, /Storage: {3}the data folder .* cannot be written/);
    // the next command is answered by the same engine, from the index it holds: complete at once
    const second = cli(data, home, ['search', 'repo', 'map', '--json']);
    assert.equal(second.code, 0, second.stderr);
    const again = JSON.parse(second.stdout) as { count: number; indexing?: unknown };
    assert.equal(again.count, answer.count);
    assert.equal(again.indexing, undefined, 'nothing to index again');
    assert.equal((JSON.parse(cli(data, home, ['engine', 'status', '--json']).stdout) as { pid: number }).pid, pid, 'the same engine');
  } finally {
    const stop = cli(data, home, ['engine', 'stop']);
    assert.match(stop.stdout, /nothing was kept|no engine/i, stop.stdout + stop.stderr);
    if (pid) await eventually(() => !running(pid!), 'the engine stopped');
  }
});
