/** The built CLI as a user runs it: `node dist/cli.cjs …` (what `npx session-search` starts). */
import assert from 'node:assert/strict';
import { eventually } from '../eventually.js';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CORPUS, ROOT, tempDir, writeSessionCopies } from '../helpers.js';
import { decodeSemantic } from '../../src/core/semantic/semantic-file.js';

const CA_ROOT = `codearchitect=${join(CORPUS, 'codearchitect', 'sessions')}`;
/** An empty home (no default roots) and a data folder of the tests' own: the user's folders are never touched. */
const HOME_DIR = tempDir();
const DATA_DIR = tempDir();

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: HOME_DIR, SESSION_SEARCH_HOME: DATA_DIR },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a search its limit cuts says how many sessions matched', () => {
  const all = JSON.parse(cli('search', 'repository', '--root', CA_ROOT, '--json', '--limit', '1000').stdout) as { count: number; matched?: number };
  assert.ok(all.count > 10 && all.matched === undefined, `${all.count} sessions hold the word`);
  const json = JSON.parse(cli('search', 'repository', '--root', CA_ROOT, '--json', '--limit', '3').stdout) as { count: number; matched?: number };
  assert.deepEqual([json.count, json.matched], [3, all.count]);
  // (human output: the default limit of 10)
  const r = cli('search', 'repository', '--root', CA_ROOT);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^10 of ${all.count} results\\b`, 'm'));
});

test('search finds the session the words come from', () => {
  const r = cli('search', 'GitTemporaryDirectory', 'map_tokens', 'MockRepoMap', '--root', CA_ROOT);
  assert.equal(r.code, 0, r.stderr);
  const first = r.stdout.split('\n')[0];
  assert.match(first, /^ 1\. 2024-08-\d\d {2}codearchitect {2}\S+/);
  const json = cli('search', 'MockRepoMap', 'max_map_tokens', '--root', CA_ROOT, '--json');
  const response = JSON.parse(json.stdout) as { success: boolean; results: { file: string; matchedSnippets: string[] }[] };
  assert.equal(response.success, true);
  assert.match(response.results[0].matchedSnippets.join(' '), /MockRepoMap/);
});

test('a search for a command-line flag is a search, not an unknown option; other unknown options are still refused', () => {
  const r = cli('search', '--analytics-disable', '--root', CA_ROOT, '--json');
  assert.equal(r.code, 0, r.stderr);
  const response = JSON.parse(r.stdout) as { results: { matchedSnippets: string[] }[] };
  assert.ok(response.results.length > 0);
  assert.match(response.results[0].matchedSnippets.join(' '), /analytics-disable/);
  const list = cli('list', '--analytics-disable', '--root', CA_ROOT);
  assert.equal(list.code, 2);
  assert.match(list.stderr, /analytics-disable/);
});

test('list, get and --toon work on the real sample', () => {
  const list = JSON.parse(cli('list', '--root', CA_ROOT, '--json', '--limit', '5').stdout) as { count: number; sessions: { filename: string }[] };
  assert.equal(list.count, 5);
  const got = cli('get', list.sessions[0].filename, '--root', CA_ROOT);
  assert.equal(got.code, 0, got.stderr);
  assert.match(got.stdout, /^# /);
  const toon = cli('list', '--root', CA_ROOT, '--toon', '--limit', '3');
  assert.match(toon.stdout, /sessions\[3\t?\]/);
});

test('exit codes: 0 with no results, 2 on bad usage, 1 on failure, with a message on stderr', () => {
  assert.equal(cli('search', 'qqqzzzunlikelyword', '--root', CA_ROOT).code, 0);
  for (const args of [
    ['search'],
    ['frobnicate'],
    ['search', 'x', '--limit', '0'],
    ['search', 'x', '--date', '2024-02-31', '--root', CA_ROOT],
    ['search', 'x', '--root', 'nosuch=/tmp'],
  ]) {
    const r = cli(...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.ok(r.stderr.length > 0);
  }
  const missing = cli('get', 'no-such-session', '--root', CA_ROOT);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /FILE_NOT_FOUND/);
});

test('the rough edges: -word after the first word excludes, output piped into head ends quietly, nothing on disk says where it looked, a bad --limit or --mode is named', () => {
  // README's example: a phrase, then an exclusion
  const excluded = cli('search', '"repo map"', '-tokens', '--root', CA_ROOT, '--json');
  assert.equal(excluded.code, 0, excluded.stderr);
  const withWord = JSON.parse(cli('search', '"repo map"', '--root', CA_ROOT, '--json').stdout) as { count: number };
  assert.ok((JSON.parse(excluded.stdout) as { count: number }).count < withWord.count);
  // `get … | head`: the pipe closes early; no stack trace, no error code
  const piped = spawnSync('sh', ['-c', `"${process.execPath}" "${join(ROOT, 'dist', 'cli.cjs')}" list --limit 500 --root "${CA_ROOT}" | head -c 10`], {
    encoding: 'utf8',
    env: { ...process.env, HOME: HOME_DIR, SESSION_SEARCH_HOME: DATA_DIR },
  });
  assert.equal(piped.stdout.length, 10);
  assert.doesNotMatch(piped.stderr, /EPIPE|at .*\.js:\d+/);
  // nothing on disk: where it looked, not "no results for this query"
  const none = join(HOME_DIR, 'empty-folder');
  mkdirSync(none, { recursive: true });
  const empty = cli('search', 'anything', '--root', `claude-code=${none}`);
  assert.equal(empty.code, 0);
  assert.match(empty.stdout, /No sessions found on disk/);
  assert.match(empty.stdout, /claude-code +~\/empty-folder: no transcripts/);
  for (const [flag, value] of [
    ['--limit', '-1'],
    ['--limit', 'abc'],
    ['--mode', 'fuzzy'],
  ]) {
    const r = cli('search', 'x', flag, value, '--root', CA_ROOT);
    assert.equal(r.code, 2, `${flag} ${value}`);
    assert.match(r.stderr, new RegExp(flag), `${flag} ${value}: ${r.stderr}`);
  }
  const modes = ['lexical', 'hybrid', 'semantic'].map(
    (mode) => (JSON.parse(cli('search', 'repo', 'map', '--mode', mode, '--root', CA_ROOT, '--json').stdout) as { mode: string }).mode,
  );
  assert.equal(modes[0], 'lexical');
});

test('resume prints the command that reopens a session in its project folder, and --run runs it there', () => {
  const project = tempDir();
  const root = tempDir();
  const id = '12345678-1234-4234-8234-123456789abc';
  const record = (uuid: string, role: 'user' | 'assistant', text: string) =>
    JSON.stringify({ type: role, uuid, sessionId: id, cwd: project, timestamp: '2025-06-01T10:00:00Z', message: { role, content: text } });
  writeFileSync(join(root, `${id}.jsonl`), `${record('u1', 'user', 'resume the quollmigration')}\n${record('a1', 'assistant', 'done')}\n`);
  const roots = ['--root', `claude-code=${root}`, '--data', tempDir()];
  const printed = cli('resume', id, ...roots);
  assert.equal(printed.code, 0, printed.stderr);
  assert.equal(printed.stdout.trim(), `cd ${project} && claude --resume ${id}`);
  const found = JSON.parse(cli('search', 'quollmigration', ...roots, '--json').stdout) as { results: { resumeCommand?: string }[] };
  assert.equal(found.results[0].resumeCommand, `claude --resume ${id}`);
  // --run: a stand-in `claude` on PATH records where and how it was started
  const bin = tempDir();
  const out = join(bin, 'ran.txt');
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\necho "$PWD $*" > '${out}'\n`, { mode: 0o755 });
  const ran = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'resume', id, '--run', ...roots], {
    encoding: 'utf8',
    env: { ...process.env, HOME: HOME_DIR, PATH: `${bin}:${process.env.PATH}` },
  });
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(readFileSync(out, 'utf8').trim(), `${project} --resume ${id}`);
  // a tool with no resume command says so
  const aider = cli('resume', 'aider:zen-mcp-server/.aider.chat.history.md#2', '--root', `aider=${join(CORPUS, 'aider')}`);
  assert.notEqual(aider.code, 0);
  assert.match(aider.stderr, /cannot be reopened/);
});

test('mcp-config prints a claude mcp add line and a .mcp.json entry that launch this bundle', () => {
  const r = cli('mcp-config', '--root', CA_ROOT);
  assert.equal(r.code, 0, r.stderr);
  const line = r.stdout.split('\n').find((l) => l.startsWith('claude mcp add'))!;
  assert.ok(line.includes(join(ROOT, 'dist', 'mcp.js')));
  const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { mcpServers: Record<string, { command: string; args: string[] }> };
  const server = json.mcpServers['session-search'];
  assert.equal(server.command, process.execPath);
  // (a relay to the engine: a young generation of 1 MB, src/mcp/launch.ts)
  assert.deepEqual(server.args, ['--max-semi-space-size=1', join(ROOT, 'dist', 'mcp.js'), '--root', CA_ROOT]);
  assert.ok(line.includes(`${process.execPath} --max-semi-space-size=1 ${join(ROOT, 'dist', 'mcp.js')}`), line);
});

test('the archive keeps a deleted transcript searchable from the CLI; archive size and purge', () => {
  const root = tempDir();
  const data = tempDir();
  const name = 'turn-2-synthetic.jsonl';
  copyFileSync(join(CORPUS, 'codex', 'codemie', name), join(root, name));
  const first = cli('search', 'languages', '--root', `codex=${root}`, '--data', data, '--json');
  assert.equal((JSON.parse(first.stdout) as { count: number }).count, 1);
  rmSync(join(root, name));
  const after = JSON.parse(cli('search', 'languages', '--root', `codex=${root}`, '--data', data, '--json').stdout) as {
    results: { sourceDeleted?: boolean }[];
  };
  assert.equal(after.results.length, 1);
  assert.equal(after.results[0].sourceDeleted, true);
  // people see it too
  assert.match(cli('search', 'languages', '--root', `codex=${root}`, '--data', data).stdout, /\(source deleted\)/);
  assert.match(cli('list', '--root', `codex=${root}`, '--data', data).stdout, /\(source deleted\)/);
  const size = JSON.parse(cli('archive', 'size', '--data', data, '--json').stdout) as { entries: number; bytes: number; snapshotBytes: number };
  assert.equal(size.entries, 1);
  assert.ok(size.bytes > 0 && size.snapshotBytes > 0, JSON.stringify(size));
  assert.equal(cli('archive', 'purge', '--data', data).code, 0);
  assert.equal((JSON.parse(cli('search', 'languages', '--root', `codex=${root}`, '--data', data, '--json').stdout) as { count: number }).count, 0);
});

/** Sessions enough that a first load takes seconds. */
function manySessions(n: number): string {
  const root = tempDir();
  for (let i = 0; i < n; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const dir = join(root, `p${i % 10}`);
    mkdirSync(dir, { recursive: true });
    const lines = Array.from({ length: 20 }, (_, k) =>
      JSON.stringify({
        type: 'user',
        uuid: `u${i}-${k}`,
        sessionId: id,
        cwd: '/p',
        timestamp: '2026-01-01T00:00:00Z',
        message: { role: 'user', content: `interruptword ${k} of session ${i} ${'filler '.repeat(40)}` },
      }),
    );
    writeFileSync(join(dir, `${id}.jsonl`), `${lines.join('\n')}\n`);
  }
  return root;
}

/** `list` over a root, interrupted with Ctrl-C once the first group of files is committed (its archive entries exist). */
async function interruptedList(root: string, data: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'list', '--root', `claude-code=${root}`, '--data', data], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const archive = join(data, 'archive', 'v1');
  await eventually(() => existsSync(archive) && readdirSync(archive).length > 0, 'the first group of files is archived', { timeoutMs: 60_000 });
  child.kill('SIGINT');
  return { code: await exited, stderr };
}

test('Ctrl-C while indexing in process stops between files, keeps what was read, exits 130; the next run reads the rest', async () => {
  const n = 3000;
  const root = manySessions(n);
  const data = tempDir();
  const env = { ...process.env, SESSION_SEARCH_ENGINE: 'off' };
  const { code, stderr } = await interruptedList(root, data, env);
  assert.equal(code, 130, stderr);
  const stopped = /indexing stopped after (\d+) of (\d+) files/.exec(stderr);
  assert.ok(stopped && Number(stopped[1]) < n && Number(stopped[2]) === n, stderr);
  const next = spawnSync(
    process.execPath,
    [join(ROOT, 'dist', 'cli.cjs'), 'list', '--json', '--limit', '5000', '--root', `claude-code=${root}`, '--data', data, '--verbose'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env },
  );
  assert.equal(next.status, 0, next.stderr);
  assert.equal((JSON.parse(next.stdout) as { sessions: unknown[] }).sessions.length, n);
  assert.match(next.stderr, new RegExp(`: ${n - Number(stopped![1])} files read, ${stopped![1]} unchanged since the snapshot`));
});

test('Ctrl-C while the engine indexes ends the command (exit 130), says how far it is, and the engine goes on for the next one', async () => {
  const n = 3000;
  const root = manySessions(n);
  const data = tempDir();
  const { code, stderr } = await interruptedList(root, data, process.env);
  assert.equal(code, 130, stderr);
  const going = /indexing goes on in the engine: (\d+) of (\d+) files read so far/.exec(stderr);
  assert.ok(going && Number(going[2]) === n, stderr);
  // the next command gets every session, from the engine that kept reading
  const next = spawnSync(
    process.execPath,
    [join(ROOT, 'dist', 'cli.cjs'), 'list', '--json', '--limit', '5000', '--root', `claude-code=${root}`, '--data', data],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  assert.equal(next.status, 0, next.stderr);
  assert.equal((JSON.parse(next.stdout) as { sessions: unknown[] }).sessions.length, n);
  const pid = Number(readFileSync(join(data, 'engine', 'pid'), 'utf8'));
  process.kill(pid, 'SIGTERM');
  // (it writes its snapshot first: on a busy machine that takes a while)
  await eventually(() => !existsSync(join(data, 'engine', 'pid')), 'the engine stopped', {
    timeoutMs: 60_000,
    debug: () => readFileSync(join(data, 'engine', 'engine.log'), 'utf8').slice(-3000),
  });
});

test('piped, a command waiting for a first load says so once on standard error, then answers over every session', async () => {
  const n = 1500;
  const root = manySessions(n);
  for (const engine of ['off', 'on']) {
    const data = tempDir();
    // (told at once rather than after the 2 s a user waits first: the load of a test's history may take less)
    const env = { ...process.env, SESSION_SEARCH_WAIT_NOTICE_MS: '0', ...(engine === 'off' ? { SESSION_SEARCH_ENGINE: 'off' } : {}) };
    const args = ['list', '--json', '--limit', '5000', '--root', `claude-code=${root}`, '--data', data];
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { sessions: unknown[] }).sessions.length, n, `engine ${engine}`);
    const said = r.stderr.match(/session-search: waiting for the index: [\d,]+ of [\d,]+ files read so far; the answer comes when every one is/g) ?? [];
    assert.equal(said.length, 1, `engine ${engine}: ${r.stderr}`);
    assert.match(said[0], new RegExp(` of ${n.toLocaleString('en-US')} files`), r.stderr);
    assert.doesNotMatch(r.stderr, /\r/, 'no progress line where there is no terminal');
    if (engine === 'off') continue;
    process.kill(Number(readFileSync(join(data, 'engine', 'pid'), 'utf8')), 'SIGTERM');
    await eventually(() => !existsSync(join(data, 'engine', 'pid')), 'the engine stopped', { timeoutMs: 60_000 });
  }
});

test('--partial answers at once from what is indexed so far and says so; without it the answer waits for the whole history', async () => {
  const root = writeSessionCopies('fe5e1c67-53e7-4862-81ae-d0e013e3270b', 120, 12);
  const data = tempDir();
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'search', 'orchestrator', '--root', `claude-code=${root}`, '--data', data, ...args], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  const partial = cli('--partial', '--json');
  assert.equal(partial.status, 0, partial.stderr);
  const early = JSON.parse(partial.stdout) as { count: number; indexing?: { complete: boolean; filesTotal: number } };
  assert.ok(early.indexing && !early.indexing.complete, partial.stdout.slice(0, 300));
  const human = cli('--partial');
  assert.match(human.stdout, /^still indexing: /);
  const whole = cli('--json');
  assert.equal(whole.status, 0, whole.stderr);
  const full = JSON.parse(whole.stdout) as { count: number; indexing?: unknown };
  assert.equal(full.indexing, undefined);
  assert.equal(full.count, 120);
});

test('the command line ranks by meaning too: a first search learns the model in the background, and says so until then', async () => {
  const home = tempDir();
  const data = tempDir();
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args, '--root', CA_ROOT, '--json'], {
      encoding: 'utf8',
      env: { ...process.env, HOME: home, SESSION_SEARCH_HOME: data },
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { mode: string; note?: string; results: unknown[] };
  };
  // no model in a new data folder: ranked by words, and --mode semantic says why instead of ranking by words in silence
  const first = run('search', 'caching the repository map', '--mode', 'semantic');
  assert.equal(first.mode, 'lexical');
  assert.match(first.note ?? '', /meaning is not ready/);
  // the search that found no model started a learner; it writes the model and ends
  const learned = (): boolean => {
    try {
      return decodeSemantic(readFileSync(join(data, 'index', 'semantic.bin')))?.model !== undefined && !existsSync(join(data, 'semantic.learning'));
    } catch {
      return false;
    }
  };
  await eventually(learned, 'the model written', { timeoutMs: 60_000 });
  const later = run('search', 'caching the repository map');
  assert.equal(later.mode, 'hybrid');
  assert.equal(run('search', 'caching the repository map', '--mode', 'semantic').note, undefined);
});

test('files: the sessions behind a file named relative to the working folder, and which one wrote its lines', () => {
  const root = tempDir();
  const repo = tempDir();
  const id = '00000000-0000-4000-8000-000000000042';
  const lines = ['export function backoff(attempt: number): number {', '  return Math.min(30_000, 2 ** attempt * 100);', '}'];
  const base = { sessionId: id, cwd: repo };
  const records = [
    { ...base, type: 'user', uuid: 'u0', timestamp: '2026-06-01T10:00:00Z', message: { role: 'user', content: 'add an exponential back-off helper' } },
    {
      ...base,
      type: 'assistant',
      uuid: 'a0',
      timestamp: '2026-06-01T10:00:01Z',
      message: {
        id: 'm0',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't0', name: 'Write', input: { file_path: join(repo, 'backoff.ts'), content: lines.join('\n') } }],
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'r0',
      timestamp: '2026-06-01T10:00:02Z',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: 'ok' }] },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      timestamp: '2026-06-01T10:00:03Z',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Added.' }] },
    },
  ];
  mkdirSync(join(root, 'p'));
  writeFileSync(join(root, 'p', `${id}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  // the person changed the cap by hand afterwards
  writeFileSync(join(repo, 'backoff.ts'), [lines[0], '  return Math.min(60_000, 2 ** attempt * 100);', lines[2], ''].join('\n'));
  const files = (...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'files', 'backoff.ts', '--root', `claude-code=${root}`, '--data', tempDir(), ...args], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, HOME: HOME_DIR },
    });
  const json = files('--lines', '1-3', '--json');
  assert.equal(json.status, 0, json.stderr);
  const answer = JSON.parse(json.stdout) as {
    total: number;
    sessions: { id: string; request: string }[];
    lines: { segments: { from: number; to: number; session?: string }[] };
  };
  assert.equal(answer.total, 1);
  assert.equal(answer.sessions[0].request, 'add an exponential back-off helper');
  assert.deepEqual(
    answer.lines.segments.map((s) => [s.from, s.to, s.session ?? null]),
    [
      [1, 1, `claude-code:${id}`],
      [2, 3, null],
    ],
  );
  const human = files('--lines', '2');
  assert.equal(human.status, 0, human.stderr);
  assert.match(human.stdout, /backoff\.ts: 1 session/);
  assert.match(human.stdout, /asked: add an exponential back-off helper/);
  assert.match(human.stdout, /2 +no agent edit matches/);
  const missing = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'files'], { encoding: 'utf8', env: { ...process.env, HOME: HOME_DIR } });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /files needs the path of a file/);
});
