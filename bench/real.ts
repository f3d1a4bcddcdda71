/**
 * `npm run bench:real [-- --sizes 1000,10000] [--shapes samples,growing]`: Session Search as people run it, beside
 * SQLite FTS5, on corpora shaped like real histories (bench/real-corpus.ts) of two shapes: words as in the sample
 * transcripts, and a vocabulary that grows with the history as real tool output's does (every hash, id and number
 * new, identifiers per project). Every client is an MCP server started as an agent starts it: it joins or starts the
 * engine of its data folder (the default; `--in-process` runs the library in the server instead), and the memory
 * given is the engine's and the server's together. Per shape and size:
 * - first load: a server started with no data folder until its answer is complete, against FTS5's build from the same
 *   files; wall time, peak memory, and how many times the load wrote its snapshot;
 * - serving memory right after the first load and after a restart, each once the known-item queries were answered;
 * - MCP `initialize` (the SDK client's connect, from the spawn) and the warm start: the engine stopped, a new server
 *   until the first right answer to a known-item query (the median of three: `--warm-starts`);
 * - sizes on disk: our archive and snapshot, FTS5's database;
 * - known-item queries of 1 to 6 words mixing a session's rare remembered words (codenames) with everyday ones, each
 *   beside a decoy sharing some of them: hit@1 and hit@10 (ours hybrid and lexical, FTS5), and their latency in the
 *   default (hybrid) mode beside FTS5 with snippet();
 * - everyday-word queries of 1 to 6 words through `search_session` (10 results with snippets), lexical and hybrid,
 *   p50/p95/p99, beside FTS5 with snippet() (and without) answering over a pipe from its own process; flags and
 *   identifiers made of the same words (`--a-b`, `a_b`, `--a`); search_context on the 3-word queries.
 * Each corpus is written once into bench/.out/real/<size> (growing: growing-<size>) and reused. */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, statfsSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT } from '../test/helpers.js';
import { realCorpus, type RealCorpus, type Vocabulary } from './real-corpus.js';
import { enginePid, memoryOf, snapshotWrites, stopEngine } from './real-engine.js';
import { ftsBuild, literalsOf, peerQueries, timeQueries, type PeerSide } from './real-peer.js';
import { withAllocatorEnv } from '../src/core/allocator.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    // the corpus shapes: words as in the samples, and a vocabulary that grows with the history as real tool output's does
    shapes: { type: 'string', default: 'samples,growing' },
    // the library in the MCP server's own process (SESSION_SEARCH_ENGINE=off), as before the engine was the default
    'in-process': { type: 'boolean', default: false },
    // a first load killed with SIGKILL at a random point, then restarted: its time and peak memory
    restart: { type: 'boolean', default: false },
    // ours alone (no FTS5 build or queries): for sizes whose FTS5 side does not fit the time at hand
    'no-peer': { type: 'boolean', default: false },
    // the data folder an earlier run of this size left is started warm (no cold build, no peer): the warm start, the
    // queries and the serving memory of the code as built now, without the first load's hour at 50,000 sessions
    'warm-only': { type: 'boolean', default: false },
    // FTS5 built and its queries timed before ours is built, as where the disk cannot hold both
    'peer-first': { type: 'boolean', default: false },
    // warm starts one after the other (the first also answers the queries): the row gives their median
    'warm-starts': { type: 'string', default: '3' },
  },
});
const OUT = join(ROOT, 'bench', '.out', 'real');
const pct = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const f1 = (n: number): string => n.toFixed(1);
const f2 = (n: number): string => n.toFixed(2);
const f0 = (n: number): string => n.toFixed(0);

function duMb(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.size / 1048576;
  return readdirSync(path).reduce((n, name) => n + duMb(join(path, name)), 0);
}

const inProcess = values['in-process'] === true;
/**
 * What an MCP server is started with. By default as an agent starts it: it joins (or starts) the engine of its data
 * folder, which its launcher starts with the allocator settings (engine/client.ts). In process (`--in-process`), the
 * server loads and answers itself, with the engine's allocator settings (core/allocator.ts).
 */
function serverEnv(home: string): Record<string, string> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.SESSION_SEARCH_ENGINE;
  return (inProcess ? withAllocatorEnv({ ...env, SESSION_SEARCH_ENGINE: 'off' }) : env) as Record<string, string>;
}
/** Where a corpus of `size` sessions of `shape` is written. */
const corpusDir = (size: number, shape: Vocabulary): string => join(OUT, shape === 'samples' ? String(size) : `${shape}-${size}`);

async function corpus(size: number, shape: Vocabulary): Promise<RealCorpus> {
  const dir = corpusDir(size, shape);
  const marker = join(dir, 'corpus.json');
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as RealCorpus;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t = performance.now();
  const made = await realCorpus(dir, size, true, { vocabulary: shape });
  writeFileSync(marker, JSON.stringify(made));
  console.error(`corpus of ${size} sessions written: ${(made.bytes / 1048576).toFixed(0)} MB in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  return made;
}

interface Server {
  client: Client;
  /** The MCP server's process (the relay, by default). */
  pid: number;
  /** How long `initialize` took from the process's spawn (the SDK client's connect). */
  initializeMs: number;
  /** Peak memory of what serves this client: the engine's and the relay's, or the server's own in process (MB). */
  peakMb: () => number;
  /** Memory in use now, the same way (MB). */
  rssMb: () => number;
  close: () => Promise<void>;
}

/**
 * Our MCP server over stdio, as an agent starts it: each phase here (cold, warm) starts one, whose start and memory are
 * measured together with the engine's behind it (bench/machine.ts measures one engine shared by many clients).
 */
async function mcpServer(c: RealCorpus, data: string): Promise<Server> {
  const args = [join(ROOT, 'dist', 'mcp.js'), ...c.roots.flatMap((r) => ['--root', `${r.source}=${r.path}`]), '--data', data];
  const transport = new StdioClientTransport({ command: process.execPath, args, env: serverEnv(c.home), stderr: 'ignore' });
  const client = new Client({ name: 'bench-real', version: '1' });
  const t = performance.now();
  await client.connect(transport);
  const initializeMs = performance.now() - t;
  const pid = transport.pid!;
  const both = (pick: (m: { rssMb: number; peakMb: number }) => number): number => pick(memoryOf(pid)) + (inProcess ? 0 : pick(memoryOf(enginePid(data))));
  return { client, pid, initializeMs, peakMb: () => both((m) => m.peakMb), rssMb: () => both((m) => m.rssMb), close: () => client.close() };
}

/** Stops the engine of `data` (none in process): the next server starts it warm, from its snapshot. */
async function stopServing(c: RealCorpus, data: string): Promise<void> {
  if (!inProcess) await stopEngine(data, serverEnv(c.home));
}

/**
 * The memory of what serves a client once it has answered the known-item queries and settled a few seconds: measured
 * the same way right after a first load and after a restart, so that the two compare.
 */
async function servingMb(server: Server, c: RealCorpus): Promise<number> {
  for (const k of c.known) await search(server.client, k.query);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  return server.rssMb();
}

/**
 * A new MCP server on the data folder, until its first right answer: the ids `expected` holds (the cold server's last
 * answer), or with none (warm only) the first complete answer ranked with the meaning leg, as a cold run's last was.
 */
async function warmStart(c: RealCorpus, data: string, expected: Found | undefined): Promise<{ server: Server; ms: number; first: Found }> {
  const t = performance.now();
  const server = await mcpServer(c, data);
  const right = (found: Found): boolean => (expected ? found.ids.join() === expected.ids.join() : !found.partial && found.mode === 'hybrid');
  let first = await search(server.client, c.known[0].query);
  while (!right(first) && performance.now() - t < 120_000) first = await search(server.client, c.known[0].query);
  return { server, ms: performance.now() - t, first };
}

type Indexing = { filesDone: number; filesTotal: number };
type Found = { ids: string[]; snippets: number; partial: boolean; indexing?: Indexing; mode?: string };
async function search(client: Client, query: string, mode?: 'lexical'): Promise<Found> {
  const res = await client.callTool({ name: 'search_session', arguments: { query, limit: 10, mode } }, undefined, { timeout: 3_600_000 });
  const content = (res.structuredContent ?? {}) as { results?: { id: string; matchedSnippets: string[] }[]; indexing?: Indexing; mode?: string };
  const results = content.results ?? [];
  return {
    ids: results.map((r) => r.id),
    snippets: results.reduce((n, r) => n + r.matchedSnippets.length, 0),
    partial: content.indexing !== undefined,
    indexing: content.indexing,
    mode: content.mode,
  };
}

/** Polls a server until its answer is complete; how long that took from `t`. */
async function untilComplete(client: Client, query: string, t: number): Promise<number> {
  while ((await search(client, query)).partial) await new Promise((resolve) => setTimeout(resolve, 1000));
  return performance.now() - t;
}

/**
 * A first load killed with SIGKILL at a random point between a fifth and four fifths of `coldMs`, and a new server on
 * the same data folder until its answer is complete: the restart's time and both processes' peak memory.
 */
async function killAndRestart(c: RealCorpus, data: string, coldMs: number): Promise<string> {
  rmSync(data, { recursive: true, force: true });
  const first = await mcpServer(c, data);
  const at = coldMs * (0.2 + 0.6 * Math.random());
  await new Promise((resolve) => setTimeout(resolve, at));
  const killedRss = first.peakMb();
  // (what loads is killed: the engine, or the server itself in process)
  const engine = enginePid(data);
  if (engine) process.kill(engine, 'SIGKILL');
  process.kill(first.pid, 'SIGKILL');
  await first.close().catch(() => undefined);
  const t = performance.now();
  const again = await mcpServer(c, data);
  const ms = await untilComplete(again.client, c.known[0].query, t);
  const rss = again.peakMb();
  await again.close();
  await stopServing(c, data);
  rmSync(data, { recursive: true, force: true });
  return `killed after ${f1(at / 1000)} s (peak ${killedRss.toFixed(0)} MB); the restart completed in ${f1(ms / 1000)} s, peak ${rss.toFixed(0)} MB`;
}

const rows: string[] = [];
const restarts: string[] = [];
for (const [shape, size] of (values.shapes!.split(',') as Vocabulary[]).flatMap((shape) => values.sizes!.split(',').map((n) => [shape, Number(n)] as const))) {
  const c = await corpus(size, shape);
  const dir = corpusDir(size, shape);
  const data = join(dir, 'data');
  const db = join(dir, 'fts5.db');
  const warmOnly = values['warm-only'] === true;
  if (warmOnly && !existsSync(join(data, 'index'))) throw new Error(`--warm-only: no data folder of ${size} sessions at ${data}; run without it first`);
  if (!warmOnly) rmSync(data, { recursive: true, force: true });
  rmSync(db, { force: true });
  rmSync(`${db}-wal`, { force: true });
  // Our archive and FTS5's database are each about the corpus's size: where the disk cannot hold both, FTS5 is
  // built and its queries timed first, then it is removed and ours is built.
  const free = statfsSync(dir).bavail * statfsSync(dir).bsize;
  const ftsFirst = free < 2.3 * c.bytes || values['peer-first'] === true;
  let fts: { buildMs: number; peakRssMb: number } | undefined;
  let peerSide: PeerSide | undefined;
  let ftsDiskMb = 0;
  const noPeer = values['no-peer'] === true || warmOnly;
  if (noPeer) fts = { buildMs: NaN, peakRssMb: NaN };
  else if (ftsFirst) {
    fts = await ftsBuild(c, db);
    ftsDiskMb = duMb(db);
    peerSide = await peerQueries(db, c);
    // (printed now: ours takes as long again, and a run stopped before its row still has them)
    const [s, n] = [peerSide.ftsMs.flat(), peerSide.ftsPlainMs.flat()];
    console.error(
      `${shape} ${size}: FTS5 + snippet() p50 / p95 / p99 ${f2(pct(s, 0.5))} / ${f2(pct(s, 0.95))} / ${f2(pct(s, 0.99))} ms, no snippets p50 / p95 ${f2(pct(n, 0.5))} / ${f2(pct(n, 0.95))} ms, known items hit@1 ${peerSide.ftsHit1} / ${c.known.length}`,
    );
    rmSync(db, { force: true });
    rmSync(`${db}-wal`, { force: true });
    console.error(
      `${shape} ${size}: ${values['peer-first'] ? '--peer-first' : `disk too small for both (${(free / 1073741824).toFixed(0)} GB free)`}: FTS5 built first (${f1(fts.buildMs / 1000)} s), its queries timed, and removed`,
    );
  }

  // Cold: no data folder yet. The first answer comes at once (partial, from what is indexed so far); the newest 10% of
  // sessions are searchable once a tenth of the files are committed (the load reads newest first); the cold build ends
  // when an answer is no longer partial (asked every quarter second until the tenth, then once a second).
  const t = performance.now();
  let expected: Found | undefined;
  let [firstAnswerMs, newestTenthMs, coldMs, vectorsMs, coldRss, afterLoadMb, loadWrites] = [NaN, NaN, NaN, NaN, NaN, NaN, NaN];
  const initializeMs: number[] = [];
  if (!warmOnly) {
    const writesBefore = snapshotWrites(data);
    const cold = await mcpServer(c, data);
    initializeMs.push(cold.initializeMs);
    expected = await search(cold.client, c.known[0].query);
    firstAnswerMs = performance.now() - t;
    newestTenthMs = expected.partial ? 0 : firstAnswerMs;
    while (expected.partial) {
      await new Promise((resolve) => setTimeout(resolve, newestTenthMs ? 1000 : 250));
      expected = await search(cold.client, c.known[0].query);
      const { filesDone = 0, filesTotal = 1 } = expected.indexing ?? {};
      if (!newestTenthMs && (!expected.partial || (filesTotal > 0 && filesDone >= filesTotal / 10))) newestTenthMs = performance.now() - t;
    }
    coldMs = performance.now() - t;
    // the semantic leg learns once the load is over: searches are hybrid from then on (the answer a warm start must give)
    while ((expected = await search(cold.client, c.known[0].query)).mode !== 'hybrid' && performance.now() - t < 4 * coldMs + 600_000)
      await new Promise((resolve) => setTimeout(resolve, 250));
    vectorsMs = performance.now() - t;
    // (the last write, once the load is over, included)
    loadWrites = snapshotWrites(data) - writesBefore;
    coldRss = cold.peakMb();
    // serving right after the first load, measured as after a restart (below)
    afterLoadMb = await servingMb(cold, c);
    await cold.close();
    await stopServing(c, data);
    if (!fts) {
      fts = await ftsBuild(c, db);
      ftsDiskMb = duMb(db);
    }
  }
  fts ??= { buildMs: NaN, peakRssMb: NaN }; // (warm only: no peer)

  // Warm: a new server on the data folder, until the first right answer (the one the cold server gave).
  const { server: warm, ms: firstWarmMs, first } = await warmStart(c, data, expected);
  expected ??= first;

  const all = c.queries.flat();
  // One pass to warm caches, then the measured pass; FTS5's the same way (peerQueries), after ours unless it came first.
  await timeQueries((q) => search(warm.client, q), all.slice(0, 30));
  const oursMs: number[][] = [];
  for (const qs of c.queries) oursMs.push(await timeQueries((q) => search(warm.client, q, 'lexical'), qs));
  const hybridMs: number[][] = [];
  for (const qs of c.queries) hybridMs.push(await timeQueries((q) => search(warm.client, q), qs));
  const literals = literalsOf(c);
  const literalMs = await timeQueries((q) => search(warm.client, q), literals);
  // search_context (blocks with calibrated scores, default threshold) on the 3-word queries
  const contextMs = await timeQueries(
    (q) => warm.client.callTool({ name: 'search_context', arguments: { query: q, limit: 10 } }, undefined, { timeout: 3_600_000 }),
    c.queries[2],
  );
  let hit1 = 0;
  let hit10 = 0;
  let lexicalHit1 = 0;
  const knownMs: number[] = [];
  for (const k of c.known) {
    const started = performance.now();
    const o = await search(warm.client, k.query);
    knownMs.push(performance.now() - started);
    hit1 += o.ids[0] === k.id ? 1 : 0;
    hit10 += o.ids.includes(k.id) ? 1 : 0;
    lexicalHit1 += (await search(warm.client, k.query, 'lexical')).ids[0] === k.id ? 1 : 0;
  }
  const servingRss = warm.peakMb();
  const restartedMb = await servingMb(warm, c);
  initializeMs.push(warm.initializeMs);
  await warm.close();
  await stopServing(c, data);
  // more warm starts, one after the other: the row gives their median (one alone varied by a fifth on a shared machine)
  const warmStarts = [firstWarmMs];
  while (warmStarts.length < Number(values['warm-starts'])) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const again = await warmStart(c, data, expected);
    warmStarts.push(again.ms);
    initializeMs.push(again.server.initializeMs);
    await again.server.close();
    await stopServing(c, data);
  }
  const warmMs = pct(warmStarts, 0.5);
  if (!noPeer) peerSide ??= await peerQueries(db, c);
  const {
    ftsMs,
    ftsPlainMs,
    literalFtsMs,
    ftsHit1,
    ftsHit10,
    servingRss: ftsServingRss,
    knownMs: knownFtsMs,
  } = peerSide ?? {
    ftsMs: c.queries.map(() => [NaN]),
    ftsPlainMs: [[NaN]],
    literalFtsMs: [NaN],
    ftsHit1: NaN,
    ftsHit10: NaN,
    knownMs: [NaN],
    servingRss: NaN,
  };

  const diskMb = `${duMb(join(data, 'archive')).toFixed(0)} + ${duMb(join(data, 'index')).toFixed(0)} / ${noPeer ? '—' : ftsDiskMb.toFixed(0)}`;
  const flat = (xs: number[][]): number[] => xs.flat();
  const peerOr = (text: string): string => (noPeer ? '—' : text);
  const o = flat(oursMs);
  const s = flat(ftsMs);
  const n = flat(ftsPlainMs);
  const h = flat(hybridMs);
  const known = `${f2(pct(knownMs, 0.5))} / ${f2(pct(knownMs, 0.95))}${peerOr(` vs ${f2(pct(knownFtsMs, 0.5))} / ${f2(pct(knownFtsMs, 0.95))} (${f2(pct(knownMs, 0.5) / pct(knownFtsMs, 0.5))}× / ${f2(pct(knownMs, 0.95) / pct(knownFtsMs, 0.95))}×)`)}`;
  const line = [
    inProcess ? `${shape} (in process)` : shape,
    size,
    (c.bytes / 1048576).toFixed(0),
    `${f2(pct(o, 0.5))} / ${f2(pct(o, 0.95))} / ${f2(pct(o, 0.99))}`,
    peerOr(`${f2(pct(s, 0.5))} / ${f2(pct(s, 0.95))} / ${f2(pct(s, 0.99))}`),
    peerOr(`${f2(pct(n, 0.5))} / ${f2(pct(n, 0.95))}`),
    peerOr(`${f2(pct(o, 0.5) / pct(s, 0.5))}× / ${f2(pct(o, 0.95) / pct(s, 0.95))}×`),
    warmOnly ? '— (warm only)' : noPeer ? `${f1(coldMs / 1000)} / —` : `${f1(coldMs / 1000)} / ${f1(fts.buildMs / 1000)} (${f2(coldMs / fts.buildMs)}×)`,
    `${f2(pct(h, 0.5))} / ${f2(pct(h, 0.95))} (${f2(pct(h, 0.5) / pct(o, 0.5))}× lexical p50)`,
    warmOnly ? '—' : `${f1(vectorsMs / 1000)} (${f2(vectorsMs / coldMs)}× without)`,
    f2(warmMs / 1000),
    `${servingRss.toFixed(0)} / ${peerOr(ftsServingRss.toFixed(0))}`,
    warmOnly ? '—' : `${coldRss.toFixed(0)} / ${noPeer ? '—' : fts.peakRssMb.toFixed(0)}`,
    diskMb,
    `${((100 * hit1) / c.known.length).toFixed(0)}% / ${((100 * hit10) / c.known.length).toFixed(0)}% · ${((100 * lexicalHit1) / c.known.length).toFixed(0)}% · ${peerOr(`${((100 * ftsHit1) / c.known.length).toFixed(0)}% / ${((100 * ftsHit10) / c.known.length).toFixed(0)}%`)}`,
    known,
    warmOnly ? '—' : String(loadWrites),
    `${warmOnly ? '—' : afterLoadMb.toFixed(0)} / ${restartedMb.toFixed(0)}`,
    f0(pct(initializeMs, 0.5)),
  ].join(' | ');
  rows.push(`| ${line} |`);
  console.error(`${shape} ${size}: | ${line} |`); // at once: a long run's later phases (the restart) may not be waited for
  const perWords = c.queries.map((_, k) => `${k + 1}w ${f2(pct(oursMs[k], 0.5))}/${f2(pct(ftsMs[k], 0.5))}`).join(', ');
  console.error(`${shape} ${size}: p50 by words, ours/FTS5+snippets ms: ${perWords}`);
  console.error(
    `${shape} ${size}: flags and identifiers (${literals.length}, e.g. ${literals.slice(0, 3).join(' ')}): ours p50 / p95 ${f2(pct(literalMs, 0.5))} / ${f2(pct(literalMs, 0.95))} ms, FTS5+snippets ${f2(pct(literalFtsMs, 0.5))} / ${f2(pct(literalFtsMs, 0.95))} ms`,
  );
  console.error(`${shape} ${size}: warm starts to the first right answer: ${warmStarts.map((ms) => f2(ms / 1000)).join(', ')} s (median ${f2(warmMs / 1000)})`);
  console.error(
    `${shape} ${size}: search_context (3 words, threshold 0.7): p50 / p95 ${f2(pct(contextMs, 0.5))} / ${f2(pct(contextMs, 0.95))} ms (search_session hybrid, 3 words: ${f2(pct(hybridMs[2], 0.5))} ms)`,
  );
  if (!warmOnly)
    console.error(
      `${shape} ${size}: first answer of a cold start (partial, while indexing) after ${f2(firstAnswerMs / 1000)} s; newest 10% of sessions searchable after ${f1(newestTenthMs / 1000)} s`,
    );
  rmSync(db, { force: true });
  rmSync(`${db}-wal`, { force: true });
  if (values.restart && !warmOnly) {
    rmSync(data, { recursive: true, force: true });
    const restart = await killAndRestart(c, join(dir, 'data-restart'), coldMs);
    restarts.push(`| ${shape} | ${size} | ${restart} |`);
    console.error(`${shape} ${size}: ${restart}`);
  }
}
console.log(
  '| shape | sessions | MB | MCP search_session lexical p50 / p95 / p99 ms | FTS5 + snippet() p50 / p95 / p99 ms | FTS5 no snippets p50 / p95 | ours ÷ FTS5+snippets p50 / p95 | cold build s ours / FTS5 (ratio) | hybrid p50 / p95 ms | cold build with vectors s | warm start to first right answer s | serving peak RSS MB ours / FTS5 | cold peak RSS MB ours / FTS5 | disk MB archive + snapshot / FTS5 db | known items hit@1 / hit@10 ours (hybrid) · hit@1 ours lexical · FTS5 | known-item queries p50 / p95 ms ours (hybrid) vs FTS5 + snippet() | snapshot writes during the first load | serving MB right after the first load / after a restart | MCP initialize p50 ms |',
);
console.log(`|${'---|'.repeat(19)}`);
for (const r of rows) console.log(r);
if (restarts.length) {
  console.log('\n| shape | sessions | a first load killed with SIGKILL at a random point, then restarted |\n|---|---|---|');
  for (const r of restarts) console.log(r);
}
