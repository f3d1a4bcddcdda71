/**
 * One engine per data folder, as users meet it: the built CLI and MCP server start it when none runs and share it,
 * a killed engine is started again by its next client, a client of another version takes over, and where no engine
 * can serve the answers come from the process itself. Only the user who owns the data folder can reach its socket.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { eventually } from '../eventually.js';
import { CORPUS, ROOT, tempDir, writeCodeArchitect } from '../helpers.js';
import { enginePid, HOME_DIR, setup, stopEngine } from './engine-setup.js';
import { running } from '../../src/core/store/running.js';
import { ALLOCATOR_ENV } from '../../src/core/allocator.js';
import { mcpLaunchArgs } from '../../src/mcp/launch.js';

/** The environment a process was started with (Linux: /proc), or undefined where the platform does not show it. */
function startedWith(pid: number): Map<string, string> | undefined {
  if (process.platform !== 'linux') return undefined;
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}
/** The arguments a process was started with (Linux: /proc), or undefined where the platform does not show them. */
function argsOf(pid: number): string[] | undefined {
  if (process.platform !== 'linux') return undefined;
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}
type Found = { structuredContent?: { results: { id: string }[] }; isError?: boolean; content: { text: string }[] };
async function searchTool(client: Client, limit: number): Promise<string> {
  const found = (await client.callTool({ name: 'search_session', arguments: { query: 'MockRepoMap max_map_tokens', limit } })) as unknown as Found;
  assert.ok(!found.isError && found.structuredContent, JSON.stringify(found.content));
  return found.structuredContent.results[0].id;
}
const firstId = (stdout: string): string => (JSON.parse(stdout) as { results: { id: string }[] }).results[0]?.id;
const QUERY = ['MockRepoMap', 'max_map_tokens', '--json'];

test('CLI commands and an MCP server on one data folder share one engine, started by the first of them', async () => {
  const { data, root, cli } = setup();
  const first = cli(['search', ...QUERY]);
  assert.equal(first.code, 0, first.stderr);
  const pid = enginePid(data);
  assert.ok(running(pid), 'the engine outlives the command that started it');
  // its log says how long its start took, to its first complete answer (what bench:machine reports beside the command's)
  assert.match(readFileSync(join(data, 'engine', 'engine.log'), 'utf8'), /first complete answer \d+ ms after the engine's process started/);
  // it loads with the C allocator told to give freed memory back (core/allocator.ts)
  const env = startedWith(pid);
  if (env) for (const [name, value] of Object.entries(ALLOCATOR_ENV)) assert.equal(env.get(name), value, name);
  const again = cli(['search', ...QUERY, '--verbose']);
  assert.equal(firstId(again.stdout), firstId(first.stdout));
  assert.doesNotMatch(again.stderr, /answering in this process/);
  assert.equal(enginePid(data), pid, 'the second command found the same engine');
  const listed = JSON.parse(cli(['list', '--json', '--limit', '3']).stdout) as { count: number; sessions: { id: string }[] };
  assert.equal(listed.count, 3);
  // tags given, listed and taken away through the engine: the command reads no source and loads no library itself
  assert.equal(cli(['tag', listed.sessions[0].id, 'flaky-tests']).code, 0);
  assert.equal(cli(['tag', listed.sessions[1].id, 'flaky-tests']).code, 0);
  const tags = cli(['tags', '--verbose']);
  assert.equal(tags.stdout, 'flaky-tests  2 sessions\n');
  assert.equal(tags.stderr, '', 'nothing read in the command’s own process');
  assert.equal(cli(['tags'], { SESSION_SEARCH_ENGINE: 'off' }).stdout, tags.stdout, 'as a library in process answers');
  assert.equal(cli(['untag', listed.sessions[0].id, 'flaky-tests']).code, 0);
  assert.deepEqual(JSON.parse(cli(['tags', '--json']).stdout), { tags: [{ tag: 'flaky-tests', sessions: 1 }] });

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'dist', 'mcp.js'), '--root', root, '--data', data, '--verbose'],
    env: { ...(process.env as Record<string, string>), HOME: HOME_DIR },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const client = new Client({ name: 'engine-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    assert.equal(await searchTool(client, 3), firstId(first.stdout));
    assert.match(log, new RegExp(`answering from the engine \\(pid ${pid}\\)`));
  } finally {
    await client.close();
  }
  assert.equal(enginePid(data), pid);
  await stopEngine(data);
});

test('a session written while the engine runs is found by every client without one reading it again', async () => {
  const dir = tempDir();
  const ca = join(dir, 'ca');
  writeCodeArchitect(ca, '2025-11-20', 'notes', [{ role: 'user', content: 'how do we cache the build?' }]);
  const run = (args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args, '--root', `codearchitect=${ca}`, '--data', join(dir, 'd'), '--json'], {
      encoding: 'utf8',
      env: { ...process.env, HOME: HOME_DIR },
    });
  assert.equal((JSON.parse(run(['search', 'cache']).stdout) as { count: number }).count, 1);
  writeCodeArchitect(ca, '2025-11-21', 'keys', [{ role: 'user', content: 'rotate the zqxvexample signing keys' }]);
  // the engine's watcher reads it: the next command answers with it, no command reads the file itself
  await eventually(() => (JSON.parse(run(['search', 'zqxvexample']).stdout) as { count: number }).count === 1, 'the new session is found');
  await stopEngine(join(dir, 'd'));
});

test('a killed engine is started again by its next client, and a connected MCP server carries on', async () => {
  const { data, root, cli } = setup();
  assert.equal(cli(['search', ...QUERY]).code, 0);
  // (launched as the launch lines give it: a young generation of 1 MB, src/mcp/launch.ts)
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: mcpLaunchArgs(join(ROOT, 'dist', 'mcp.js'), ['--root', root, '--data', data]),
    env: { ...(process.env as Record<string, string>), HOME: HOME_DIR },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'engine-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const ask = (): Promise<string> => searchTool(client, 1);
    const expected = await ask();
    const pid = enginePid(data);
    process.kill(pid, 'SIGKILL');
    await eventually(() => !running(pid), 'the engine died');
    // the MCP server notices, starts the next engine and answers the same
    assert.equal(await ask(), expected);
    // and a question asked as the engine dies is answered too (asked again of the next one, where it was lost)
    const asked = ask();
    process.kill(enginePid(data), 'SIGKILL');
    assert.equal(await asked, expected);
    const next = enginePid(data);
    assert.notEqual(next, pid);
    assert.ok(running(next));
    // the engine it started loads with V8's own young generation, not the relay's
    const args = argsOf(next);
    if (args) {
      assert.ok(args.includes('serve'), args.join(' '));
      assert.ok(!args.some((a) => a.startsWith('--max-semi-space-size')), args.join(' '));
    }
    // and the CLI finds that one
    const r = cli(['search', ...QUERY]);
    assert.equal(firstId(r.stdout), expected);
    assert.equal(enginePid(data), next);
  } finally {
    await client.close();
  }
  await stopEngine(data);
});

test('a client of another version asks the engine to hand over and starts its own', async () => {
  const { data, cli } = setup();
  const expected = firstId(cli(['search', ...QUERY]).stdout);
  const old = enginePid(data);
  const r = cli(['search', ...QUERY], { SESSION_SEARCH_ENGINE_VERSION: '99.0.0-next', MALLOC_ARENA_MAX: '4' });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(firstId(r.stdout), expected);
  await eventually(() => !running(old), 'the old engine handed over and exited', { timeoutMs: 60_000 });
  const next = enginePid(data);
  assert.notEqual(next, old);
  // an allocator setting of the user's own is kept, the others added
  const env = startedWith(next);
  if (env) assert.deepEqual([env.get('MALLOC_ARENA_MAX'), env.get('MALLOC_MMAP_THRESHOLD_')], ['4', ALLOCATOR_ENV.MALLOC_MMAP_THRESHOLD_]);
  const log = readFileSync(join(data, 'engine', 'engine.log'), 'utf8');
  assert.match(log, /engine stops: a client of version 99\.0\.0-next asked to hand over/);
  assert.match(log, /engine 99\.0\.0-next \(pid \d+\) serving/);
  await stopEngine(data);
});

test('a client of an older build uses a newer build’s engine instead of taking it over', async () => {
  const { data, cli } = setup();
  const expected = firstId(cli(['search', ...QUERY]).stdout);
  const engine = enginePid(data);
  // an install built long before this one (the same protocol): it asks the running engine, it does not evict it
  const older = cli(['search', ...QUERY, '--verbose'], { SESSION_SEARCH_ENGINE_VERSION: '0.0.1-old', SESSION_SEARCH_ENGINE_BUILT: '1' });
  assert.equal(older.code, 0, older.stderr);
  assert.equal(firstId(older.stdout), expected);
  assert.doesNotMatch(older.stderr, /answering in this process/);
  assert.equal(enginePid(data), engine);
  assert.ok(running(engine), 'the newer engine still serves');
  await stopEngine(data);
});

test('where no engine can serve, the command answers in its own process and says why', async () => {
  const { data, cli } = setup();
  const off = cli(['search', ...QUERY, '--verbose'], { SESSION_SEARCH_ENGINE: 'off' });
  assert.equal(off.code, 0, off.stderr);
  assert.match(off.stderr, /answering in this process: SESSION_SEARCH_ENGINE=off/);
  assert.ok(!existsSync(join(data, 'engine', 'pid')), 'no engine was started');
  // a data folder where no socket folder can be made (its place taken by a file)
  const blocked = tempDir();
  writeFileSync(join(blocked, 'engine'), 'not a folder');
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'search', ...QUERY, '--verbose', '--root', setup().root, '--data', blocked], {
    encoding: 'utf8',
    env: { ...process.env, HOME: HOME_DIR },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /answering in this process: no socket can be made in the data folder/);
  assert.equal(firstId(r.stdout), firstId(off.stdout));
});

test('an engine with no client stops once idle; its socket and folder admit only their owner', async () => {
  const { data, cli } = setup();
  assert.equal(cli(['search', ...QUERY], { SESSION_SEARCH_ENGINE_IDLE_MS: '1500' }).code, 0);
  const pid = enginePid(data);
  const socket = join(data, 'engine', 'sock');
  assert.equal(statSync(join(data, 'engine')).mode & 0o777, 0o700);
  assert.equal(statSync(socket).mode & 0o777, 0o600);
  if (process.getuid?.() === 0) {
    // another user's process (nobody) is refused by the folder's permissions
    const probe = `require('node:net').connect(${JSON.stringify(socket)}).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); });`;
    const other = spawn(process.execPath, ['-e', probe], { uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    other.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((resolve) => other.once('exit', resolve));
    assert.equal(out.trim(), 'EACCES');
  }
  await eventually(() => !running(pid), 'the idle engine stopped', { timeoutMs: 60_000 });
  assert.ok(!existsSync(socket), 'and removed its socket');
});

test('an engine whose data folder is removed stops instead of writing there', async () => {
  const data = tempDir();
  writeCodeArchitect(join(data, 'ca'), '2025-11-20', 'notes', [{ role: 'user', content: 'a session of its own' }]);
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'dist', 'cli.cjs'), 'search', 'session', '--root', `codearchitect=${join(data, 'ca')}`, '--data', join(data, 'd')],
    {
      encoding: 'utf8',
      env: { ...process.env, HOME: HOME_DIR },
    },
  );
  assert.equal(r.status, 0, r.stderr);
  const pid = enginePid(join(data, 'd'));
  spawnSync('rm', ['-rf', join(data, 'd')]);
  await eventually(() => !running(pid), 'the engine stopped', { timeoutMs: 15_000 });
  assert.ok(!existsSync(join(data, 'd')), 'nothing was written back');
});

test('the next command in a folder finds it read and watched: nothing is walked again, and a history written between is found', async () => {
  const { data, cli } = setup();
  const history = join(CORPUS, 'specstory', 'specstory-cli', 'history');
  const project = tempDir();
  mkdirSync(join(project, '.specstory', 'history'), { recursive: true });
  const names = ['2026-01-29_14-35-22Z-already-done-the-test.md', '2026-01-29_16-26-43Z-the-test-inversions-have.md'];
  copyFileSync(join(history, names[0]), join(project, '.specstory', 'history', names[0]));
  const inProject = () => cli(['search', 'test', '--source', 'specstory', '--json', '--root', `specstory=${project}`]);
  const files = (stdout: string) => (JSON.parse(stdout) as { results: { file: string }[] }).results.map((r) => r.file).sort();
  const first = inProject();
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(files(first.stdout), [join(project, '.specstory', 'history', names[0])]);
  copyFileSync(join(history, names[1]), join(project, '.specstory', 'history', names[1]));
  const second = inProject();
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(
    files(second.stdout),
    names.map((n) => join(project, '.specstory', 'history', n)),
    'the history written after the first command is in the second’s answer',
  );
  const log = readFileSync(join(data, 'engine', 'engine.log'), 'utf8');
  assert.equal(log.split('\n').filter((l) => l.includes(`${project} added`)).length, 1, `the folder was walked once:\n${log}`);
  await stopEngine(data);
});

test('commands run in different project folders share the engine, each finding its own folder’s SpecStory history', async () => {
  const { data, cli } = setup();
  const history = join(CORPUS, 'specstory', 'specstory-cli', 'history');
  const projects = ['2026-01-29_14-35-22Z-already-done-the-test.md', '2026-01-29_16-26-43Z-the-test-inversions-have.md'].map((name) => {
    const project = tempDir();
    mkdirSync(join(project, '.specstory', 'history'), { recursive: true });
    copyFileSync(join(history, name), join(project, '.specstory', 'history', name));
    return project;
  });
  const inProject = (project: string) => cli(['search', 'test', '--source', 'specstory', '--json', '--verbose', '--root', `specstory=${project}`]);
  const first = inProject(projects[0]);
  assert.equal(first.code, 0, first.stderr);
  const pid = enginePid(data);
  const second = inProject(projects[1]);
  assert.equal(second.code, 0, second.stderr);
  assert.doesNotMatch(second.stderr, /answering in this process/, 'a folder of its own is no reason for an engine of its own');
  assert.equal(enginePid(data), pid);
  const files = (stdout: string) => (JSON.parse(stdout) as { results: { file: string }[] }).results.map((r) => r.file);
  assert.ok(
    files(first.stdout).some((f) => f.startsWith(projects[0])),
    first.stdout,
  );
  assert.ok(
    files(second.stdout).some((f) => f.startsWith(projects[1])),
    second.stdout,
  );
  await stopEngine(data);
});

test('a relative path in an agent’s tool call is read in the agent’s folder, not the engine’s; resume, export and sources are the engine’s answers too', async () => {
  const dir = tempDir();
  const project = join(dir, 'shop');
  const root = join(dir, 'projects');
  const data = join(dir, 'data');
  const id = 'aaaaaaaa-1111-4222-8333-444444444444';
  const file = join(project, 'src', 'app.ts');
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(join(root, 'p'), { recursive: true });
  writeFileSync(file, 'export const retries = 5;\n');
  const base = { sessionId: id, cwd: project };
  const records = [
    { ...base, type: 'user', uuid: 'u0', timestamp: '2026-05-01T10:00:00.000Z', message: { role: 'user', content: 'set the retries to five' } },
    {
      ...base,
      type: 'assistant',
      uuid: 'a0',
      timestamp: '2026-05-01T10:00:01.000Z',
      message: {
        id: 'm0',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't0', name: 'Write', input: { file_path: file, content: 'export const retries = 5;\n' } }],
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'r0',
      timestamp: '2026-05-01T10:00:02.000Z',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: 'done' }] },
    },
  ];
  writeFileSync(join(root, 'p', `${id}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const roots = ['--root', `claude-code=${root}`, '--data', data];
  /** The CLI run in a folder of its own (not the project's, nor the test's). */
  const elsewhere = (args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args, ...roots], {
      cwd: tempDir(),
      encoding: 'utf8',
      env: { ...process.env, HOME: HOME_DIR },
    });
  // the engine started by a command run in another folder
  const started = elsewhere(['engine', 'start']);
  assert.equal(started.status, 0, started.stderr);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: mcpLaunchArgs(join(ROOT, 'dist', 'mcp.js'), roots),
    cwd: project,
    env: { ...(process.env as Record<string, string>), HOME: HOME_DIR },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'engine-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = (await client.callTool({ name: 'file_history', arguments: { path: 'src/app.ts' } })) as { structuredContent?: unknown; content: unknown };
    const h = r.structuredContent as { path: string; total: number; sessions: { id: string }[] } | undefined;
    assert.ok(h, JSON.stringify(r.content));
    assert.equal(h.path, file);
    assert.equal(h.total, 1);
    assert.equal(h.sessions[0].id, `claude-code:${id}`);
    // "." as a project filter is the agent's project
    const here = (await client.callTool({ name: 'search_session', arguments: { query: 'retries five', project: '.' } })) as {
      structuredContent?: { results: { id: string }[] };
    };
    assert.deepEqual(
      here.structuredContent?.results.map((r) => r.id),
      [`claude-code:${id}`],
    );
    // a conversation stored with its project as "." is stored with the agent's folder
    const stored = (await client.callTool({
      name: 'store_session',
      arguments: { conversation: 'User: how do we rotate the zebrakeys?\nAssistant: With the rotate script.', topic: 'zebrakeys', projectDir: '.' },
    })) as { structuredContent?: { filename: string }; content: unknown };
    assert.ok(stored.structuredContent, JSON.stringify(stored.content));
    const got = (await client.callTool({ name: 'get_session', arguments: { filename: stored.structuredContent.filename } })) as {
      structuredContent?: { session: { project?: string } };
      content: unknown;
    };
    assert.equal(got.structuredContent?.session.project, project, JSON.stringify(got.content).slice(0, 300));
  } finally {
    await client.close();
  }
  // and resume, export and sources, asked in a third folder, are answered by the engine too: nothing read in the
  // command's own process
  const resumed = elsewhere(['resume', id, '--verbose']);
  assert.equal(resumed.stdout, `cd ${project} && claude --resume ${id}\n`);
  assert.equal(resumed.stderr, '');
  const exported = elsewhere(['export', id, '--verbose']);
  assert.match(exported.stdout, /^# set the retries to five\n[^]*set the retries to five/);
  assert.equal(exported.stderr, '');
  const sources = elsewhere(['sources', '--json', '--verbose']);
  const claude = (JSON.parse(sources.stdout) as { sources: { id: string; sessions: number; roots: { path: string; sessions: number }[] }[] }).sources.find(
    (s) => s.id === 'claude-code',
  );
  assert.deepEqual(claude && { sessions: claude.sessions, roots: claude.roots.map((r) => [r.path, r.sessions]) }, { sessions: 1, roots: [[root, 1]] });
  assert.equal(sources.stderr, '');
  await stopEngine(data);
});
