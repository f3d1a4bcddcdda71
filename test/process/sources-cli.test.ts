/** `session-search sources` and `session-search import` as a user runs them, over the tools' default folders. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SOURCES } from '../../src/core/ingest/sources/registry.js';
import { CORPUS, ROOT, tempDir } from '../helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures');
const HOME_DIR = tempDir();
const DATA_DIR = tempDir();
cpSync(join(FIXTURES, 'copilot-cli', 'session-state'), join(HOME_DIR, '.copilot', 'session-state'), { recursive: true });
cpSync(join(FIXTURES, 'amp', 'threads'), join(HOME_DIR, '.local', 'share', 'amp', 'threads'), { recursive: true });
cpSync(join(FIXTURES, 'continue', 'sessions'), join(HOME_DIR, '.continue', 'sessions'), { recursive: true });

function cli(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: HOME_DIR, SESSION_SEARCH_HOME: DATA_DIR };
  for (const moved of ['XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'CODEX_HOME', 'CLAUDE_CONFIG_DIR', 'COPILOT_HOME', 'AMP_DATA_DIR', 'CONTINUE_GLOBAL_DIR'])
    delete env[moved];
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args], { encoding: 'utf8', env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Report {
  sources: { id: string; label: string; sessions: number; roots: { path: string; exists: boolean; imported: boolean; sessions: number }[] }[];
}

test('sources lists every source with where it looked and how many sessions it found', () => {
  const r = cli('sources', '--json');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as Report;
  assert.deepEqual(
    report.sources.map((s) => s.id),
    SOURCES.map((s) => s.id),
  );
  const by = (id: string) => report.sources.find((s) => s.id === id)!;
  assert.equal(by('copilot-cli').sessions, 1);
  assert.deepEqual(by('copilot-cli').roots, [{ path: join(HOME_DIR, '.copilot', 'session-state'), exists: true, imported: false, sessions: 1 }]);
  assert.equal(by('amp').sessions, 1);
  assert.equal(by('continue').sessions, 1);
  assert.ok(
    by('claude-code').roots.every((root) => !root.exists && root.sessions === 0),
    'a tool never used: its folder is shown as not found',
  );
  const human = cli('sources');
  assert.match(human.stdout, /^GitHub Copilot CLI \(copilot-cli\): 1 session$/m);
  assert.match(human.stdout, /\.claude\/projects: not found/);
});

test('import reads a ChatGPT export from then on, archived like any other session', () => {
  const exportDir = tempDir();
  cpSync(join(FIXTURES, 'chatgpt', 'conversations.json'), join(exportDir, 'conversations.json'));
  const r = cli('import', exportDir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Imported .*\n {2}ChatGPT \(export\): .*conversations\.json/);
  assert.match(r.stdout, /conversations\.json: 2 sessions/);
  const again = cli('import', join(exportDir, 'conversations.json'));
  assert.match(again.stdout, /Already imported/);
  const search = cli('search', 'pgbouncer', 'pool', '--json');
  const results = (JSON.parse(search.stdout) as { results: { id: string; source: string }[] }).results;
  assert.equal(results[0]?.id, 'chatgpt:68bb1a2c-0000-8000-9000-aaaaaaaaaaaa');
  const report = JSON.parse(cli('sources', '--json').stdout) as Report;
  assert.deepEqual(
    report.sources.find((s) => s.id === 'chatgpt')?.roots.map((root) => [root.imported, root.sessions]),
    [[true, 2]],
  );
  const bad = cli('import', join(FIXTURES, 'amp'));
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /no export found/);
});

test("the SQLite-backed sources read in the command's own process as through the engine (the real Cursor database)", () => {
  const root = `cursor=${join(CORPUS, 'cursor')}`;
  const list = (engine: 'on' | 'off') => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: tempDir(), SESSION_SEARCH_HOME: tempDir() };
    if (engine === 'off') env.SESSION_SEARCH_ENGINE = 'off';
    else delete env.SESSION_SEARCH_ENGINE;
    const args = [join(ROOT, 'dist', 'cli.cjs'), 'list', '--no-default-roots', '--root', root, '--json', '--limit', '1000', '--verbose'];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', env });
    if (engine === 'on') spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'engine', 'stop'], { env });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /skipped/, 'no database is skipped');
    return (JSON.parse(r.stdout) as { sessions: { id: string; topic: string }[] }).sessions.map((s) => `${s.id} ${s.topic}`).sort();
  };
  const inProcess = list('off');
  assert.ok(inProcess.length > 0, 'the Cursor database gives its sessions in process');
  assert.deepEqual(inProcess, list('on'));
});
