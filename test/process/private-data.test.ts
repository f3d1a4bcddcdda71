/**
 * The data folder is private by construction: whatever command comes first (import, search, tag, list), through the
 * engine as users run it, under the common umask 022, every folder in it is 0700 and every file 0600; a folder an
 * earlier release left readable by others is tightened, whole, by the next command, and the engine's log says so.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CORPUS, ROOT, tempDir } from '../helpers.js';
import { HOME_DIR, stopEngine } from './engine-setup.js';

const FIXTURES = join(ROOT, 'test', 'fixtures');

const ROOTS = ['--root', `codearchitect=${join(CORPUS, 'codearchitect', 'sessions')}`];

/** Runs the CLI as a shell started under umask 022 would. */
function cli(data: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const command = [process.execPath, join(ROOT, 'dist', 'cli.cjs'), ...args, ...ROOTS, '--data', data].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const r = spawnSync('/bin/sh', ['-c', `umask 022; exec ${command}`], { encoding: 'utf8', env: { ...process.env, HOME: HOME_DIR } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every folder and regular file under `dir` (the folder itself included) whose mode lets anyone else in. */
function openToOthers(dir: string): string[] {
  const loose: string[] = [];
  const walk = (path: string): void => {
    const info = lstatSync(path);
    if (info.isDirectory()) {
      if ((info.mode & 0o777) !== 0o700) loose.push(`${path} ${(info.mode & 0o777).toString(8)}`);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (info.isFile() && (info.mode & 0o777) !== 0o600) loose.push(`${path} ${(info.mode & 0o777).toString(8)}`);
  };
  walk(dir);
  return loose;
}

const countFiles = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? countFiles(join(dir, e.name)) : e.isFile() ? 1 : 0), 0);

for (const [name, first] of [
  ['import', ['import', join(FIXTURES, 'chatgpt', 'chatgpt-export.zip')]],
  ['search', ['search', 'repo', 'map']],
  ['list', ['list']],
] as const) {
  test(`a data folder whose first command is ${name} is owner-only, every folder 0700 and every file 0600 (umask 022)`, async () => {
    const data = join(tempDir(), 'not-yet');
    try {
      const r = cli(data, [...first]);
      assert.equal(r.code, 0, r.stderr);
      const again = cli(data, ['search', 'repo', 'map', '--json']);
      assert.equal(again.code, 0, again.stderr);
    } finally {
      await stopEngine(data); // its snapshot and archive written too
    }
    assert.ok(countFiles(data) >= 3, 'the folder holds what the commands wrote');
    assert.deepEqual(openToOthers(data), []);
  });
}

test('tag as the first command, and a folder an earlier release left readable by others is tightened whole, with a log line', async () => {
  const data = join(tempDir(), 'not-yet');
  try {
    const list = JSON.parse(cli(data, ['list', '--json']).stdout) as { results?: { id: string }[]; sessions?: { id: string }[] };
    const id = (list.results ?? list.sessions ?? [])[0]?.id;
    assert.ok(id, 'a session to tag');
    const tagged = cli(data, ['tag', id, 'keep']);
    assert.equal(tagged.code, 0, tagged.stderr);
  } finally {
    await stopEngine(data);
  }
  assert.deepEqual(openToOthers(data), []);
  // as the previous release left it: folders 0755, files 0644
  const loosen = (path: string): void => {
    const info = lstatSync(path);
    if (info.isDirectory()) {
      chmodSync(path, 0o755);
      for (const name of readdirSync(path)) loosen(join(path, name));
    } else if (info.isFile()) chmodSync(path, 0o644);
  };
  loosen(data);
  assert.ok(openToOthers(data).length >= 3);
  try {
    const r = cli(data, ['search', 'repo', 'map']);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await stopEngine(data);
  }
  assert.deepEqual(openToOthers(data), []);
  assert.match(readFileSync(join(data, 'engine', 'engine.log'), 'utf8'), /the data folder was readable by other users; made owner-only/);
});
