/**
 * The user's own model through the real surfaces: a CLI search with --embed-endpoint hands the model to the data
 * folder's engine, which embeds the sessions in the background and then finds a paraphrase that shares no word with
 * its session; an MCP server named the model by the environment answers the same; a remote endpoint is refused at once.
 * The endpoint is a local server with a deterministic fake embedding (test/embed-server.ts): no ranking claim.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { eventually } from '../eventually.js';
import { ROOT, tempDir, writeCodeArchitect } from '../helpers.js';
import { running } from '../../src/core/store/running.js';
import { startFakeEndpoint, type FakeEndpoint } from '../embed-server.js';

const run = promisify(execFile);
const HOME_DIR = tempDir();
const DATA = tempDir();
const ROOT_DIR = tempDir();
const TIMER = 'Show how long is left';
const QUERY = 'countdown waiting';
let server: FakeEndpoint;

before(async () => {
  server = await startFakeEndpoint();
  for (const [i, topic] of ['parser', 'renderer', 'linter', 'bundler', 'router'].entries())
    writeCodeArchitect(ROOT_DIR, `2026-03-0${i + 1}`, `Work on the ${topic}`, [
      { role: 'user', content: `Please refactor the ${topic} module so that it reads its options once.` },
      { role: 'assistant', content: `The ${topic} now reads its options at start and keeps them.` },
    ]);
  writeCodeArchitect(ROOT_DIR, '2026-03-20', TIMER, [
    { role: 'user', content: 'Before the request fires, show the seconds remaining on the timer.' },
    { role: 'assistant', content: 'The banner now shows the seconds remaining, updated every second.' },
  ]);
});

after(async () => {
  const pidFile = join(DATA, 'engine', 'pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    if (running(pid)) process.kill(pid, 'SIGTERM');
    await eventually(() => !running(pid), `engine ${pid} stopped`, { timeoutMs: 60_000 });
  }
  await server.close();
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args, '--root', `codearchitect=${ROOT_DIR}`, '--data', DATA], {
      env: { ...process.env, HOME: HOME_DIR },
      encoding: 'utf8',
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

type Answer = { results: { topic: string; foundBy?: string }[]; embeddings?: { status: string } };

test('a CLI search names the model: the engine embeds the sessions, then finds a paraphrase by it', async () => {
  const flags = ['--embed-endpoint', server.url, '--embed-model', 'fake-embed', '--json'];
  let last: Answer | undefined;
  await eventually(
    async () => {
      const r = await cli(['search', QUERY, ...flags]);
      assert.equal(r.code, 0, r.stderr);
      last = JSON.parse(r.stdout) as Answer;
      return last.results[0]?.topic === TIMER;
    },
    'the paraphrase found by the model',
    { timeoutMs: 60_000, intervalMs: 300, debug: () => JSON.stringify(last) },
  );
  assert.equal(last?.results[0]?.foundBy, 'meaning');
  assert.ok(
    server.requests.some((r) => r.input.some((t) => t.includes('seconds remaining on the timer'))),
    'the engine embedded the sessions',
  );
  assert.ok(
    server.requests.some((r) => r.input.includes(QUERY)),
    'and the query',
  );
});

test('an MCP server named the model by the environment answers from the same engine', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'dist', 'mcp.js'), '--root', `codearchitect=${ROOT_DIR}`, '--data', DATA],
    env: { ...(process.env as Record<string, string>), HOME: HOME_DIR, SESSION_SEARCH_EMBED_ENDPOINT: server.url, SESSION_SEARCH_EMBED_MODEL: 'fake-embed' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'embed-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const found = (await client.callTool({ name: 'search_session', arguments: { query: QUERY, limit: 3 } })) as { structuredContent?: Answer };
    assert.equal(found.structuredContent?.results[0]?.topic, TIMER, JSON.stringify(found.structuredContent));
  } finally {
    await client.close();
  }
});

test('an endpoint on another host is refused before anything is sent', async () => {
  const r = await cli(['search', QUERY, '--embed-endpoint', 'http://example.com:11434', '--embed-model', 'm']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /not on this machine/);
});
