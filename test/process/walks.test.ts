/**
 * Walks that end, as users meet them: a command run from `/` or from the home folder answers (neither is walked as a
 * workspace: from `/`, /proc's links are endless), and a command run in a project whose folder holds symlink loops
 * beside its Aider history reads that history once. Through the engine, as commands run by default.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CORPUS, ROOT, tempDir } from '../helpers.js';
import { stopEngine } from './engine-setup.js';

type Listed = { sessions: { id: string; source: string }[] };

function listFrom(cwd: string, data: string, home: string, roots: string[] = []): { code: number | null; listed?: Listed; stderr: string } {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'dist', 'cli.cjs'), 'list', '--json', '--limit', '100', ...roots.flatMap((x) => ['--root', x]), '--data', data],
    {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, HOME: home },
      timeout: 120_000, // (a walk that does not end is killed here, and the test fails on its exit)
    },
  );
  return { code: r.status, listed: r.status === 0 ? (JSON.parse(r.stdout) as Listed) : undefined, stderr: r.stderr };
}

test('a command run from / or from the home folder answers, walking neither as a workspace', async () => {
  const home = tempDir();
  for (const cwd of ['/', home]) {
    const data = join(tempDir(), 'data');
    try {
      const r = listFrom(cwd, data, home, [`codearchitect=${join(CORPUS, 'codearchitect', 'sessions')}`]);
      assert.equal(r.code, 0, `from ${cwd}: ${r.stderr}`);
      assert.ok(r.listed!.sessions.length > 0, 'the named root is read');
      assert.ok(
        r.listed!.sessions.every((s) => s.source === 'codearchitect'),
        'nothing else',
      );
    } finally {
      await stopEngine(data);
    }
  }
});

test('a project folder with symlink loops beside its Aider history (self -> ., sub/up -> .., src/root -> ../..) gives one session', async () => {
  const project = join(tempDir(), 'project');
  mkdirSync(join(project, 'sub', 'src'), { recursive: true });
  copyFileSync(join(CORPUS, 'aider', 'zen-mcp-server', '.aider.chat.history.md'), join(project, '.aider.chat.history.md'));
  symlinkSync('.', join(project, 'self'));
  symlinkSync('..', join(project, 'sub', 'up'));
  symlinkSync('../..', join(project, 'sub', 'src', 'root'));
  const data = join(tempDir(), 'data');
  const home = tempDir();
  try {
    const r = listFrom(project, data, home);
    assert.equal(r.code, 0, r.stderr);
    const aider = r.listed!.sessions.filter((s) => s.source === 'aider');
    assert.ok(aider.length > 0, 'the history is read');
    assert.equal(new Set(aider.map((s) => s.id)).size, aider.length);
    // as many sessions as the history holds when read from a folder without links
    const plain = join(tempDir(), 'plain-project');
    mkdirSync(plain);
    copyFileSync(join(project, '.aider.chat.history.md'), join(plain, '.aider.chat.history.md'));
    const plainData = join(tempDir(), 'data');
    try {
      const p = listFrom(plain, plainData, home);
      assert.equal(p.code, 0, p.stderr);
      assert.equal(aider.length, p.listed!.sessions.filter((s) => s.source === 'aider').length);
    } finally {
      await stopEngine(plainData);
    }
  } finally {
    await stopEngine(data);
  }
});
