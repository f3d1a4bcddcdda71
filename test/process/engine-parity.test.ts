/**
 * A client of the engine is told what the library in its own process would tell it. For any query and options a user
 * can give (drawn from the sample transcripts' own words), the engine's answers over its socket equal those of a library
 * in the test's process over the same data folder: the same sessions, scores, snippets, highlights and notes, by words
 * and by meaning; and the same for `get`, `read`, `list` and `search_context`. An agent's MCP server gets them too, as
 * its tools' structured answers. And the snapshot the engine restored ranks as a library built afresh from the
 * transcripts does.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { eventually } from '../eventually.js';
import { mcpLaunchArgs } from '../../src/mcp/launch.js';
import { ROOT } from '../helpers.js';
import { ROOTS as RELEVANCE_ROOTS } from '../../bench/relevance/corpus.js';
import { HOME_DIR, setup, stopEngine } from './engine-setup.js';
import { inProcess, type Engine } from '../../src/engine/api.js';
import { openEngine, type RemoteEngine } from '../../src/engine/client.js';
import type { EngineAbout } from '../../src/engine/protocol.js';
import { createLibrary, type SessionLibrary } from '../../src/core/library.js';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { silentLogger } from '../../src/core/log.js';
import type { SearchOptions } from '../../src/core/contracts.js';
import type { SourceRoot } from '../../src/core/ingest/sources/registry.js';

// the four sources the judged relevance set reads (bench/relevance)
const ROOTS: SourceRoot[] = RELEVANCE_ROOTS.map((r) => ({ ...r }));
const env = { ...process.env, HOME: HOME_DIR, SESSION_SEARCH_ENGINE_IDLE_MS: '600000' };
const { data, cli: run } = setup(ROOTS.map((r) => `${r.source}=${r.path}`));
const cli = (...args: string[]): string => {
  const r = run(args, env);
  assert.ok(r.code === 0 || r.code === 3, r.stderr);
  return r.stdout;
};
const about = (): Partial<EngineAbout> => JSON.parse(cli('engine', 'status', '--json')) as Partial<EngineAbout>;

let remote: RemoteEngine;
let library: SessionLibrary;
let local: Engine;
let fresh: LibraryCore;
let agent: Client;
let words: string[] = [];

before(async () => {
  // a first engine reads the transcripts, learns its model by meaning, and writes both down as it stops
  cli('engine', 'start');
  await eventually(() => about().meaning === 'ready' && about().status?.complete === true, 'the model by meaning learned', { timeoutMs: 120_000 });
  cli('engine', 'stop');
  // the next one serves what it restores: what users meet on every start after their first
  cli('engine', 'start');
  const { version, meaning } = about();
  assert.equal(meaning, 'ready', 'the model by meaning is restored with the snapshot');
  const opened = await openEngine({
    roots: ROOTS,
    dataDir: data,
    archive: true,
    version: version!,
    entry: join(ROOT, 'dist', 'engine.cjs'),
    complete: true,
    env,
  });
  assert.ok('engine' in opened, JSON.stringify(opened));
  remote = opened.engine;
  agent = new Client({ name: 'engine-parity-test', version: '1.0.0' });
  await agent.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: mcpLaunchArgs(join(ROOT, 'dist', 'mcp.js'), [...ROOTS.flatMap((r) => ['--root', `${r.source}=${r.path}`]), '--data', data]),
      env: env as Record<string, string>,
      stderr: 'ignore',
    }),
  );
  // the same data folder read in this process (the engine holds the writer lock: this library only reads)
  library = createLibrary({ roots: ROOTS, logger: silentLogger, dataDir: data, env: { HOME: HOME_DIR } });
  await library.load();
  local = inProcess(library);
  // and a library with no data folder, built from the transcripts alone
  fresh = openCore({ roots: ROOTS, logger: silentLogger, env: { HOME: HOME_DIR } });
  await fresh.load();
  await fresh.semantic.settled();
  assert.equal(fresh.semantic.state.status, 'ready');
  const all: string[] = [];
  fresh.index.forEachTerm((t) => {
    if (/^[a-z]{3,14}$/.test(t)) all.push(t);
  });
  words = all.filter((_, i) => i % 5 === 0);
});

after(async () => {
  await agent?.close();
  await remote?.close();
  await library?.close();
  await fresh?.close();
  await stopEngine(data);
});

/** What a client sees of an answer given in process: its JSON (the engine's answers arrive as JSON). */
const asSent = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const query = (): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(
        fc.integer({ min: 0, max: 1 << 30 }).map((i) => words[i % words.length]),
        { minLength: 1, maxLength: 4 },
      ),
      fc.constantFrom('', '"', '-'),
    )
    .map(([ws, mark]) =>
      (mark === '"' && ws.length > 1
        ? `"${ws.slice(0, 2).join(' ')}" ${ws.slice(2).join(' ')}`
        : mark === '-' && ws.length > 1
          ? `${ws.slice(0, -1).join(' ')} -${ws.at(-1)}`
          : ws.join(' ')
      ).trim(),
    );

/** Each filter given now and then (most searches have none or one). */
const sometimes = <T>(...values: T[]): fc.Arbitrary<T | undefined> => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, fc.constantFrom(...values));
const options = (): fc.Arbitrary<SearchOptions> =>
  fc
    .record({
      mode: fc.constantFrom('hybrid' as const, 'lexical' as const, 'semantic' as const),
      limit: sometimes(1, 5, 20, 200),
      source: sometimes('codex', 'claude-code', 'codearchitect', 'aider'),
      role: sometimes('user' as const, 'assistant' as const),
      kind: sometimes('conversation' as const, 'tool' as const, 'file' as const),
      dateFrom: sometimes('2024-01-01', '2025-06-01'),
    })
    .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as SearchOptions);

test('every search through the engine is answered as in the asking process, and so are get, read and list of what it found', async () => {
  let found = 0;
  await fc.assert(
    fc.asyncProperty(query(), options(), async (q, o) => {
      const there = await remote.search(q, o);
      const here = asSent(await local.search(q, o));
      assert.deepEqual(there, here, `${q} ${JSON.stringify(o)}`);
      const first = here.results[0];
      if (!first) return;
      found++;
      assert.deepEqual(await remote.get(first.id), asSent(await local.get(first.id)), first.id);
      assert.deepEqual(await remote.read(first.id, 0), asSent(await local.read(first.id, 0)), first.id);
    }),
    { numRuns: 60 },
  );
  // (not vacuous: get and read were compared for many queries; about 30 of 60 find something, 20 in one CI run)
  assert.ok(found >= 12, `a fifth of the queries at least found something (${found} of 60)`);
  for (const o of [{}, { source: 'codex', limit: 5 }, { dateFrom: '2025-01-01' }, { tags: ['codex'] }])
    assert.deepEqual(await remote.list(o), asSent(await local.list(o)), JSON.stringify(o));
});

test('an agent’s search_session and search_context through the MCP server answer as the library in the asking process', async () => {
  await fc.assert(
    fc.asyncProperty(query(), options(), async (q, o) => {
      const asked = { ...o, kind: undefined }; // (no tool filters by the kind of turn)
      const searched = await agent.callTool({ name: 'search_session', arguments: { query: q, ...asked } });
      assert.ok(!searched.isError, JSON.stringify(searched.content));
      assert.deepEqual(searched.structuredContent, asSent(await local.search(q, asked)), `${q} ${JSON.stringify(asked)}`);
    }),
    { numRuns: 30 },
  );
  for (const q of ['parser error', 'constructor', 'flaky test retry'])
    for (const threshold of [0, 0.7]) {
      const blocks = await agent.callTool({ name: 'search_context', arguments: { query: q, limit: 5, threshold } });
      assert.ok(!blocks.isError, JSON.stringify(blocks.content));
      // (how long each took is its own)
      const here = { ...asSent(await local.searchContext(q, { limit: 5, threshold })), searchTime: 0 };
      assert.deepEqual({ ...(blocks.structuredContent as typeof here), searchTime: 0 }, here, `${q} ${threshold}`);
    }
});

test('search_context through the engine gives the blocks the asking process would', async () => {
  let found = 0;
  await fc.assert(
    fc.asyncProperty(query(), fc.constantFrom(3, 10), fc.constantFrom('hybrid' as const, 'lexical' as const), async (q, limit, mode) => {
      const o = { limit, threshold: 0, mode };
      // (how long each took is its own)
      const there = { ...(await remote.searchContext(q, o)), searchTime: 0 };
      const here = { ...asSent(await local.searchContext(q, o)), searchTime: 0 };
      assert.deepEqual(there, here, q);
      found += here.results.length ? 1 : 0;
    }),
    { numRuns: 30 },
  );
  assert.ok(found > 10, `most queries found something (${found} of 30)`);
});

test('the snapshot the engine restored ranks as a library built afresh from the transcripts, by words and by meaning', async () => {
  await fc.assert(
    fc.asyncProperty(query(), fc.constantFrom(5, 50), fc.constantFrom('lexical' as const, 'hybrid' as const), async (q, limit, mode) => {
      const o = { mode, limit };
      assert.deepEqual(await remote.search(q, o), asSent(fresh.search(q, o)), `${q} ${mode}`);
    }),
    { numRuns: 60 },
  );
});
