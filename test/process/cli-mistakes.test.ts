/** The built CLI catches a person's mistakes: a clear message (and "did you mean") with exit 2, never a silent wrong answer. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMMANDS } from '../../src/cli/help.js';
import { CORPUS, ROOT, tempDir } from '../helpers.js';

const HOME_DIR = tempDir();
const DATA_DIR = tempDir();
const CA = `codearchitect=${join(CORPUS, 'codearchitect', 'sessions')}`;

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: HOME_DIR, SESSION_SEARCH_HOME: DATA_DIR },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a mistyped option is an error that names the option meant, for search as for the other commands', () => {
  for (const args of [
    ['search', 'reconnect', '--limt', '5', '--root', CA],
    ['search', 'reconnect', '--limt=5', '--root', CA],
    ['list', '--limt', '5', '--root', CA],
  ]) {
    const r = cli(...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /Unknown option --limt\. Did you mean --limit\?/);
    assert.equal(r.stdout, '', 'no answer to a question that was not asked');
  }
  const source = cli('search', 'reconnect', '--sorce', 'codex', '--root', CA);
  assert.equal(source.code, 2);
  assert.match(source.stderr, /Did you mean --source\?/);
  // a flag searched for is still a search (it is close to no option, or takes no value like one)
  const flag = cli('search', '--analytics-disable', '--root', CA, '--json');
  assert.equal(flag.code, 0, flag.stderr);
  const unknown = cli('list', '--frobnicate', '--root', CA);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown option --frobnicate\./);
});

test('a mistyped command names the command meant', () => {
  const r = cli('serch', 'flaky', '--root', CA);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Unknown command "serch"\. Did you mean search\?/);
});

test('a --root that does not exist is an error, not "No sessions match"', () => {
  const r = cli('search', 'reconnect', '--root', 'codearchitect=/no/such/folder');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--root codearchitect=\/no\/such\/folder: no such file or folder/);
});

test('every command has its own --help, naming the options it reads', () => {
  for (const command of COMMANDS) {
    const r = cli(command, '--help');
    assert.equal(r.code, 0, command);
    assert.ok(r.stdout.startsWith(`Usage: session-search ${command} [options]\n`), `${command}: ${r.stdout.slice(0, 80)}`);
    assert.match(r.stdout, /^ {2}-h, --help/m);
    assert.notEqual(r.stdout, cli('--help').stdout);
  }
  assert.match(cli('search', '--help').stdout, /--limit N/);
  assert.doesNotMatch(cli('search', '--help').stdout, /--redact-home/);
  assert.match(cli('export', '--help').stdout, /--redact-home/);
  assert.ok(cli('team', 'push', '--help').stdout.startsWith('Usage: session-search team [options]'));
});

test('--version (and -V) prints the version and build, reads no history and starts no engine, with or without a command', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const data = tempDir();
  for (const args of [['--version'], ['-V'], ['search', 'reconnect', '--version', '--root', CA]]) {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args, '--data', data], {
      encoding: 'utf8',
      env: { ...process.env, HOME: HOME_DIR },
    });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^session-search ${version.replace(/\./g, '\\.')} \\(build [0-9a-f]{12}, \\d{4}-\\d{2}-\\d{2}\\)\n$`), args.join(' '));
    assert.equal(r.stderr, '');
  }
  assert.ok(!existsSync(join(data, 'engine')), 'no engine started, nothing read');
  assert.match(cli('--help').stdout, /^ {2}-V, --version/m);
});

test('export into a folder that does not exist says so; clearing a preference that is not there says so', () => {
  const id = JSON.parse(cli('list', '--root', CA, '--json', '--limit', '1').stdout).sessions[0].id as string;
  const r = cli('export', id, '--out', '/no/such/dir/x.md', '--root', CA);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--out \/no\/such\/dir\/x\.md: the folder \/no\/such\/dir does not exist/);
  const clear = cli('preferences', 'clear', 'nosuchcat', '--root', CA);
  assert.equal(clear.code, 2);
  assert.match(clear.stderr, /No preference "nosuchcat" to clear/);
});

test('a session with nothing in it prints a line saying so, not nothing', () => {
  const root = tempDir();
  mkdirSync(join(root, '2026-01-01', 'emptytopic'), { recursive: true });
  writeFileSync(join(root, '2026-01-01', 'emptytopic', 'full.md'), '');
  const r = cli('get', 'emptytopic', '--root', `codearchitect=${root}`, '--data', tempDir());
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /no messages: .*full\.md holds nothing to show/);
});

test('resume of a session whose transcript the tool deleted says the tool no longer has it', () => {
  const root = join(tempDir(), 'projects');
  cpSync(join(CORPUS, 'claude-code', 'ccviewer', 'sample-project'), join(root, 'sample-project'), { recursive: true });
  const data = tempDir();
  const id = 'claude-code:5c0375b4-57a5-4f26-b12d-d022ee4e51b7';
  const before = cli('resume', id, '--root', `claude-code=${root}`, '--data', data);
  assert.equal(before.code, 0, before.stderr);
  assert.match(before.stdout, /claude --resume 5c0375b4/);
  rmSync(join(root, 'sample-project', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'));
  const after = cli('resume', id, '--root', `claude-code=${root}`, '--data', data);
  assert.notEqual(after.code, 0);
  assert.match(after.stderr, /claude-code no longer has this session: its transcript .* was deleted/);
  assert.equal(after.stdout, '');
});
