/** The MCP server through a real client: in memory, and over stdio against the built bundle. */
import assert from 'node:assert/strict';
import { eventually } from '../eventually.js';
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fromToon, tabularView } from '../../src/core/format.js';
import { mcpLaunchArgs } from '../../src/mcp/launch.js';
import { CORPUS, ROOT, tempDir, writeFile } from '../helpers.js';
import { serveInMemory, type ToolResult } from '../mcp-memory.js';

type Result = ToolResult;
const BIG = Array.from({ length: 180_000 }, (_, i) => `line ${i} ünïcødé ✓ 𝄞 output`).join('\n'); // > 5 MB, astral characters included
const TOOLS = [
  'file_history',
  'get_preferences',
  'get_session',
  'read_session',
  'search_context',
  'search_session',
  'store_session',
  'tag_session',
  'untag_session',
  'update_preferences',
];
/** A file the real Claude Code samples edit. */
const EDITED = '/Users/user/repo/src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md';
const WRITERS = new Set(['store_session', 'tag_session', 'untag_session', 'update_preferences']);

describe('in memory', () => {
  let client: Client;
  let storeRoot: string;
  let call: (name: string, args: Record<string, unknown>) => Promise<Result>;
  before(async () => {
    ({ client, storeRoot, call } = await serveInMemory(tempDir(), [
      { type: 'user', uuid: 'u1', timestamp: '2025-11-20T10:00:00Z', message: { role: 'user', content: 'dump the giant build log' } },
      {
        type: 'user',
        uuid: 'u2',
        timestamp: '2025-11-20T10:00:01Z',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: BIG }] },
      },
    ]));
  });
  after(() => client.close());

  test('lists the ten tools with titles, schemas and annotations', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    for (const t of tools) {
      assert.ok(t.title && t.description && t.outputSchema, t.name);
      assert.equal(t.annotations?.readOnlyHint, !WRITERS.has(t.name), t.name);
      assert.equal(t.annotations?.openWorldHint, false);
    }
    // output fields are described too, from the one declaration the engine's types come from
    type Props = Record<string, { description?: string; items?: { properties?: Props } }>;
    const search = tools.find((t) => t.name === 'search_session')!.outputSchema as { properties: Props };
    const result = search.properties.results.items!.properties!;
    for (const field of ['id', 'relevanceScore', 'matchedSnippets', 'snippetTurnIds', 'snippetHighlights']) assert.ok(result[field]?.description, field);
  });

  test('search_session: topic matches first, structured and TOON-or-JSON text agree', async () => {
    const r = await call('search_session', { query: 'Authentication' });
    const s = r.structuredContent as {
      results: { topic: string; matchedSnippets: string[]; topicHighlights: [number, number][]; snippetHighlights: [number, number][][] }[];
      count: number;
    };
    assert.equal(s.results[0].topic, 'authentication-implementation');
    assert.equal(s.count, 2);
    // structured results carry the matched ranges for screens; the text a model reads leaves them out
    assert.deepEqual(
      s.results[0].topicHighlights.map(([a, b]) => s.results[0].topic.slice(a, b)),
      ['authentication'],
    );
    assert.equal(s.results[0].snippetHighlights.length, s.results[0].matchedSnippets.length);
    const text = r.content[0].text;
    assert.doesNotMatch(text, /Highlights/);
    const forText = { ...s, results: s.results.map(({ topicHighlights: _t, snippetHighlights: _s, ...rest }) => rest) };
    if (text.startsWith('{')) assert.deepEqual(JSON.parse(text), forText);
    else assert.deepEqual(fromToon(text), tabularView(forText), 'TOON carries the tabular view of the same answer');
  });

  test('domain errors come back as isError with the seed codes and the server keeps answering', async () => {
    const empty = await call('search_session', { query: '' });
    assert.equal(empty.isError, true);
    assert.match(empty.content[0].text, /Search query is required/);
    const date = await call('search_session', { query: 'x', date: '2025-13-01' });
    assert.match(date.content[0].text, /INVALID_DATE/);
    // CodeArchitect's clients: a call without query gets the seed's error in the result, not a protocol error
    const missing = await call('search_session', {});
    assert.equal(missing.isError, true);
    assert.match(missing.content[0].text, /Search query is required/);
    assert.doesNotMatch(missing.content[0].text, /Input validation error/);
    for (const args of [{ query: 42 }, { query: 'x', limit: -1 }, { query: 'x', limit: 0 }]) {
      assert.equal((await call('search_session', args)).isError, true, JSON.stringify(args));
    }
    // any positive limit is taken, capped
    const big = await call('search_session', { query: 'authentication', limit: 10_000_000 });
    assert.equal(big.isError, undefined);
    assert.equal((big.structuredContent as { count: number }).count, 2);
    const one = (await call('search_session', { query: 'authentication', limit: 1.5 })).structuredContent as { count: number; matched?: number };
    // (the limit left one out: the answer says how many matched)
    assert.deepEqual([one.count, one.matched], [1, 2]);
    const traversal = await call('get_session', { filename: '../../../etc/passwd' });
    assert.match(traversal.content[0].text, /FILE_NOT_FOUND/);
    assert.equal((await call('read_session', { docid: 'x', offset: -5 })).isError, true);
    assert.equal((await call('search_session', { query: 'nextauth' })).isError, undefined);
  });

  test('get_session: list and one session, -summary.md and -full.md', async () => {
    const list = (await call('get_session', { format: 'json' })).structuredContent as { sessions: unknown[]; count: number };
    assert.equal(list.count, 3);
    const one = (await call('get_session', { filename: 'authentication-implementation-summary.md', format: 'json' })).structuredContent as {
      session: { file: string };
    };
    assert.ok(one.session.file.endsWith('summary.md'));
    // the summary in every format: its markdown, not the conversation
    for (const format of ['json', 'toon', 'auto']) {
      const summary = (await call('get_session', { filename: 'authentication-implementation-summary.md', format })).structuredContent as {
        session: { content: string };
      };
      assert.match(summary.session.content, /## Short Summary/, format);
      assert.doesNotMatch(summary.session.content, /NextAuth/, format);
    }
  });

  test('read_session pages a 5 MB tool output back exactly; unknown ids are found: false', async () => {
    const hit = (await call('search_session', { query: 'giant build log' })).structuredContent as { results: { id: string }[] };
    const sessionId = hit.results[0].id;
    const docid = `${sessionId}#1`;
    let offset: number | null = 0;
    let text = '';
    let pages = 0;
    while (offset !== null) {
      const page = (await call('read_session', { docid, offset })).structuredContent as {
        text: string;
        next_offset: number | null;
        total_bytes: number;
        returned_bytes: number;
      };
      assert.ok(page.returned_bytes <= 512_000);
      text += page.text;
      offset = page.next_offset;
      pages++;
    }
    assert.equal(text, BIG);
    assert.ok(pages >= 10);
    const missing = (await call('read_session', { docid: 'nope#3' })).structuredContent as { found: boolean };
    assert.equal(missing.found, false);
  });

  test('search_context returns turns with calibrated scores above the threshold', async () => {
    const r = (await call('search_context', { query: 'When did we decide to use PostgreSQL instead of MongoDB?' })).structuredContent as {
      results: { blockId: string; score: number; type: string }[];
      totalMatches: number;
    };
    assert.ok(r.results.length >= 1);
    assert.ok(r.results.every((b) => b.score >= 0.7 && b.score <= 1));
    assert.match(r.results[0].blockId, /authentication-implementation#0$/);
    const strict = (await call('search_context', { query: 'PostgreSQL giant', threshold: 0.99 })).structuredContent as { results: unknown[] };
    assert.equal(strict.results.length, 0);
  });

  test('search_context with types ["decision"]: the turn where it was decided, what was decided as its snippet', async () => {
    const r = (await call('search_context', { query: 'When did we decide to use PostgreSQL instead of MongoDB?', types: ['decision'], threshold: 0 }))
      .structuredContent as { results: { blockId: string; type: string; snippet: string }[] };
    assert.ok(r.results.length >= 1);
    assert.ok(r.results.every((b) => b.type === 'decision'));
    assert.match(r.results[0].blockId, /authentication-implementation#0$/);
    assert.equal(r.results[0].snippet, 'We decided to use PostgreSQL instead of MongoDB.');
    const bad = await call('search_context', { query: 'PostgreSQL', types: ['decisions'] });
    assert.equal(bad.isError, true);
  });

  test("store_session writes CodeArchitect's layout, masked, searchable at once", async () => {
    const secret = `ghp_${'Zk3'.repeat(12)}`;
    const r = await call('store_session', {
      conversation: `User: how do we rotate ${secret}?\nAssistant: use the vault quokkarotation job`,
      topic: 'Key Rotation',
    });
    const s = r.structuredContent as { file: string; topic: string; filename: string; date: string; fullFile: string; summaryFile: string; message: string };
    assert.equal(s.topic, 'key-rotation');
    assert.equal(s.filename, 'key-rotation');
    assert.equal(s.fullFile, s.file);
    assert.ok(s.summaryFile.endsWith(join('key-rotation', 'summary.md')) && !Number.isNaN(Date.parse(s.date)));
    assert.match(s.message, /get_session/);
    // a CodeArchitect client reads back what it stored by the returned name
    const back = (await call('get_session', { filename: s.filename, format: 'json' })).structuredContent as { session: { content: string } };
    assert.match(back.session.content, /quokkarotation/);
    assert.ok(s.file.startsWith(storeRoot) && s.file.endsWith(join('key-rotation', 'full.md')));
    const again = (await call('store_session', { conversation: [{ role: 'user', content: 'second' }], topic: 'Key Rotation' })).structuredContent as {
      topic: string;
      filename: string;
      warning?: string;
    };
    assert.equal(again.topic, 'key-rotation-1');
    assert.equal(again.filename, 'key-rotation-1');
    assert.match(again.warning ?? '', /already stored that day/);
    const found = (await call('search_session', { query: 'quokkarotation' })).structuredContent as { results: { topic: string }[] };
    assert.equal(found.results[0].topic, 'key-rotation');
    const { readFileSync } = await import('node:fs');
    assert.ok(!readFileSync(s.file, 'utf8').includes(secret));
  });

  test('100 calls in flight at once are all answered', async () => {
    const calls = Array.from({ length: 100 }, (_, i) => call('search_session', { query: i % 2 ? 'authentication' : 'nextauth', limit: 5 }));
    const results = await Promise.all(calls);
    assert.equal(results.filter((r) => !r.isError && (r.structuredContent as { count: number }).count > 0).length, 100);
  });
});

/** A cold server answers at once with what it has indexed so far; tests that need all of it wait for the last partial mark. */
async function untilIndexed(client: Client): Promise<void> {
  await eventually(
    async () => {
      const r = (await client.callTool({ name: 'search_session', arguments: { query: 'the' } })) as Result;
      return (r.structuredContent as { indexing?: unknown } | undefined)?.indexing === undefined;
    },
    'the first load finished',
    { timeoutMs: 60_000, intervalMs: 50 },
  );
}

describe('stdio, against the built bundle', () => {
  test('node dist/mcp.js, launched as the launch lines give it, answers tools/list and ranks real sessions', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: mcpLaunchArgs(join(ROOT, 'dist', 'mcp.js'), [
        '--data',
        tempDir(),
        '--root',
        `codearchitect=${join(CORPUS, 'codearchitect', 'sessions')}`,
        '--root',
        `claude-code=${join(CORPUS, 'claude-code')}`,
      ]),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await untilIndexed(client);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
      const r = (await client.callTool({ name: 'search_session', arguments: { query: 'CLAUDE.md foundation', limit: 3 } })) as Result;
      const s = r.structuredContent as { results: { id: string; relevanceScore: number }[] };
      assert.equal(s.results[0].id, 'claude-code:1af7fc5e-8455-4414-9ccd-011d40f70b2a');
      assert.ok(s.results.length <= 3);
      // a file the real sessions edited: the sessions behind it, with the turns that edited it and the text written
      const history = (await client.callTool({ name: 'file_history', arguments: { path: EDITED } })) as Result;
      const h = history.structuredContent as {
        total: number;
        sessions: { id: string; touches: { turn: string; kind: string; hunk?: string }[]; request?: string }[];
      };
      assert.ok(h.total >= 1, JSON.stringify(h));
      const edit = h.sessions.flatMap((x) => x.touches).find((t) => t.kind === 'edit');
      assert.ok(edit?.hunk, 'an edit with the text it wrote');
      assert.ok(edit.turn.startsWith(h.sessions.find((x) => x.touches.includes(edit))!.id));
      const bad = (await client.callTool({ name: 'file_history', arguments: { path: EDITED, lines: 'the top bit' } })) as Result;
      assert.equal(bad.isError, true);
      assert.match(bad.content[0].text, /INVALID_ARGUMENT.*lines must be/);
    } finally {
      await client.close();
    }
  });
});

describe('a running stdio server stays fresh', () => {
  test('turns appended to a transcript are found by the next searches, and a restart answers from the snapshot', async () => {
    const root = join(tempDir(), 'projects');
    const data = tempDir();
    const id = '77777777-8888-4999-8aaa-bbbbbbbbbbbb';
    const file = join(root, 'p', `${id}.jsonl`);
    const line = (n: number, text: string): string =>
      `${JSON.stringify({ type: 'user', uuid: `u${n}`, sessionId: id, cwd: '/p', timestamp: new Date().toISOString(), message: { role: 'user', content: text } })}\n`;
    writeFile(file, line(0, 'the first prompt of a live session'));
    const start = async (): Promise<Client> => {
      const client = new Client({ name: 'live-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [join(ROOT, 'dist', 'mcp.js'), '--data', data, '--root', `claude-code=${root}`],
          stderr: 'pipe',
        }),
      );
      return client;
    };
    const count = async (client: Client, word: string): Promise<number> =>
      (((await client.callTool({ name: 'search_session', arguments: { query: word } })) as Result).structuredContent as { count: number }).count;
    const client = await start();
    try {
      await untilIndexed(client);
      assert.equal(await count(client, 'live'), 1);
      for (let i = 1; i <= 5; i++) {
        appendFileSync(file, line(i, `mcpfresh${i} appended while the server runs`));
        await eventually(async () => (await count(client, `mcpfresh${i}`)) === 1, `append ${i} is found`);
      }
    } finally {
      await client.close();
    }
    const again = await start();
    try {
      assert.equal(await count(again, 'mcpfresh5'), 1, 'the restarted server knows the appended turns');
    } finally {
      await again.close();
    }
  });
});

describe('launched by VS Code', () => {
  test("the editor's per-source settings choose the folders when no --root is given", async () => {
    const sources = JSON.stringify({
      sources: [
        { id: 'codearchitect', enabled: true, folders: [join(ROOT, 'demo', 'codearchitect')] },
        { id: 'claude-code', enabled: false, folders: [] },
      ],
      workspaceFolders: [],
    });
    const home = tempDir();
    const client = new Client({ name: 'vscode-like', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(ROOT, 'dist', 'mcp.js'), '--data', tempDir()],
        env: { HOME: home, SESSION_SEARCH_SOURCES: sources },
        stderr: 'pipe',
      }),
    );
    try {
      await untilIndexed(client);
      const r = (await client.callTool({ name: 'search_session', arguments: { query: 'PostgreSQL' } })) as Result;
      const s = r.structuredContent as { results: { id: string }[] };
      assert.deepEqual(
        s.results.map((x) => x.id),
        ['codearchitect:2026-11-05/postgres-vs-mongodb'],
      );
    } finally {
      await client.close();
    }
  });
});

describe('a third-party client: the MCP Inspector CLI', () => {
  // The inspector finds its own package.json relative to the working directory, so it runs from its build folder.
  const inspectorDir = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build');
  const dataDir = tempDir();
  const inspect = (...args: string[]) =>
    spawnSync(
      process.execPath,
      [
        'index.js',
        process.execPath,
        join(ROOT, 'dist', 'mcp.js'),
        '--data',
        dataDir,
        '--root',
        `codearchitect=${join(CORPUS, 'codearchitect', 'sessions')}`,
        ...args,
      ],
      {
        cwd: inspectorDir,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );

  test('lists the ten tools and calls search_session against the bundle', () => {
    const list = inspect('--method', 'tools/list');
    assert.equal(list.status, 0, list.stderr);
    assert.deepEqual((JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort(), TOOLS);
    const call = inspect('--method', 'tools/call', '--tool-name', 'search_session', '--tool-arg', 'query=MockRepoMap max_map_tokens');
    assert.equal(call.status, 0, call.stderr);
    const result = JSON.parse(call.stdout) as { structuredContent: { results: { filename: string; matchedSnippets: string[] }[] } };
    assert.ok(result.structuredContent.results.length >= 1);
    assert.match(result.structuredContent.results[0].matchedSnippets.join(' '), /MockRepoMap/);
  });
});
