/**
 * `npm run bench:real [-- --sizes 1000,10000]`: Session Search as people call it, beside SQLite FTS5, on a corpus
 * shaped like real histories (bench/real-corpus.ts), in one run. Per size:
 * - cold build: our MCP server started with no data folder until its first answer (it answers once the first load is
 *   done: parse, mask, index, archive, snapshot), against FTS5's build from the same files; wall time and peak RSS;
 * - sizes on disk: our archive and snapshot, FTS5's database;
 * - warm start: a new MCP server on the data folder until the first right answer to a known-item query (the median of
 *   three, one after the other: `--warm-starts`);
 * - query latency through the real MCP server over stdio (`search_session`, 10 results with snippets, lexical) for 1 to 6 words,
 *   p50/p95/p99, beside FTS5 with snippet() (and without) answering over a pipe from its own process;
 * - the same queries ranked hybrid (the default: words and meaning fused), p50/p95 and its ratio to lexical; the cold
 *   build with vectors: until answers are hybrid (the semantic model learned once the load is over);
 * - flags and identifiers made of the same words (`--a-b`, `a_b`, `--a`: the literal path), p50/p95 beside FTS5;
 * - search_context (blocks with calibrated scores) on the 3-word queries, p50/p95;
 * - peak RSS of each serving process; hit@1 and hit@10 of the planted known items (queries of 1 to 6 words mixing
 *   its codenames with everyday words, each beside a decoy sharing some of them) for ours hybrid and lexical, and FTS5.
 * The corpus is written once per size into bench/.out/real/<size> and reused.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, statfsSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT } from '../test/helpers.js';
import { realCorpus, type RealCorpus } from './real-corpus.js';
import { peakRssMb } from './real-fts5.js';
import { ftsBuild, literalsOf, peerQueries, timeQueries, type PeerSide } from './real-peer.js';
import { withAllocatorEnv } from '../src/core/allocator.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
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

function duMb(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.size / 1048576;
  return readdirSync(path).reduce((n, name) => n + duMb(join(path, name)), 0);
}

async function corpus(size: number): Promise<RealCorpus> {
  const dir = join(OUT, String(size));
  const marker = join(dir, 'corpus.json');
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as RealCorpus;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t = performance.now();
  const made = await realCorpus(dir, size);
  writeFileSync(marker, JSON.stringify(made));
  console.error(`corpus of ${size} sessions written: ${(made.bytes / 1048576).toFixed(0)} MB in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  return made;
}

/**
 * Our MCP server over stdio, as an agent starts it, with its library in its own process (SESSION_SEARCH_ENGINE=off):
 * each phase here (cold, warm) is one process whose memory and start are measured; the shared engine is measured by
 * bench/machine.ts. It runs as the engine is started, the process that loads and answers by default behind an agent's
 * MCP server: with the engine's allocator settings (core/allocator.ts), and without the 1 MB young generation an
 * agent's relay is given (mcp/launch.ts), which made a first load in process up to a third slower.
 */
async function mcpServer(c: RealCorpus, data: string): Promise<{ client: Client; pid: number; close: () => Promise<void> }> {
  const args = [join(ROOT, 'dist', 'mcp.js'), ...c.roots.flatMap((r) => ['--root', `${r.source}=${r.path}`]), '--data', data];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: withAllocatorEnv({ ...process.env, HOME: c.home, SESSION_SEARCH_ENGINE: 'off' }) as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-real', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid!, close: () => client.close() };
}

/**
 * A new MCP server on the data folder, until its first right answer: the ids `expected` holds (the cold server's last
 * answer), or with none (warm only) the first complete answer ranked with the meaning leg, as a cold run's last was.
 */
async function warmStart(
  c: RealCorpus,
  data: string,
  expected: Found | undefined,
): Promise<{ server: Awaited<ReturnType<typeof mcpServer>>; ms: number; first: Found }> {
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
  const killedRss = peakRssMb(first.pid);
  process.kill(first.pid, 'SIGKILL');
  await first.close().catch(() => undefined);
  const t = performance.now();
  const again = await mcpServer(c, data);
  const ms = await untilComplete(again.client, c.known[0].query, t);
  const rss = peakRssMb(again.pid);
  await again.close();
  rmSync(data, { recursive: true, force: true });
  return `killed after ${f1(at / 1000)} s (peak ${killedRss.toFixed(0)} MB); the restart completed in ${f1(ms / 1000)} s, peak ${rss.toFixed(0)} MB`;
}

const rows: string[] = [];
const restarts: string[] = [];
for (const size of values.sizes!.split(',').map(Number)) {
  const c = await corpus(size);
  const dir = join(OUT, String(size));
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
      `${size}: FTS5 + snippet() p50 / p95 / p99 ${f2(pct(s, 0.5))} / ${f2(pct(s, 0.95))} / ${f2(pct(s, 0.99))} ms, no snippets p50 / p95 ${f2(pct(n, 0.5))} / ${f2(pct(n, 0.95))} ms, known items hit@1 ${peerSide.ftsHit1} / ${c.known.length}`,
    );
    rmSync(db, { force: true });
    rmSync(`${db}-wal`, { force: true });
    console.error(
      `${size}: ${values['peer-first'] ? '--peer-first' : `disk too small for both (${(free / 1073741824).toFixed(0)} GB free)`}: FTS5 built first (${f1(fts.buildMs / 1000)} s), its queries timed, and removed`,
    );
  }

  // Cold: no data folder yet. The first answer comes at once (partial, from what is indexed so far); the newest 10% of
  // sessions are searchable once a tenth of the files are committed (the load reads newest first); the cold build ends
  // when an answer is no longer partial (asked every quarter second until the tenth, then once a second).
  const t = performance.now();
  let expected: Found | undefined;
  let [firstAnswerMs, newestTenthMs, coldMs, vectorsMs, coldRss] = [NaN, NaN, NaN, NaN, NaN];
  if (!warmOnly) {
    const cold = await mcpServer(c, data);
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
    coldRss = peakRssMb(cold.pid);
    await cold.close();
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
  for (const k of c.known) {
    const o = await search(warm.client, k.query);
    hit1 += o.ids[0] === k.id ? 1 : 0;
    hit10 += o.ids.includes(k.id) ? 1 : 0;
    lexicalHit1 += (await search(warm.client, k.query, 'lexical')).ids[0] === k.id ? 1 : 0;
  }
  const servingRss = peakRssMb(warm.pid);
  await warm.close();
  // more warm starts, one after the other: the row gives their median (one alone varied by a fifth on a shared machine)
  const warmStarts = [firstWarmMs];
  while (warmStarts.length < Number(values['warm-starts'])) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const again = await warmStart(c, data, expected);
    warmStarts.push(again.ms);
    await again.server.close();
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
  } = peerSide ?? {
    ftsMs: c.queries.map(() => [NaN]),
    ftsPlainMs: [[NaN]],
    literalFtsMs: [NaN],
    ftsHit1: NaN,
    ftsHit10: NaN,
    servingRss: NaN,
  };

  const diskMb = `${duMb(join(data, 'archive')).toFixed(0)} + ${duMb(join(data, 'index')).toFixed(0)} / ${noPeer ? '—' : ftsDiskMb.toFixed(0)}`;
  const flat = (xs: number[][]): number[] => xs.flat();
  const peerOr = (text: string): string => (noPeer ? '—' : text);
  const o = flat(oursMs);
  const s = flat(ftsMs);
  const n = flat(ftsPlainMs);
  const h = flat(hybridMs);
  const line = [
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
  ].join(' | ');
  rows.push(`| ${line} |`);
  console.error(`${size}: | ${line} |`); // at once: a long run's later phases (the restart) may not be waited for
  const perWords = c.queries.map((_, k) => `${k + 1}w ${f2(pct(oursMs[k], 0.5))}/${f2(pct(ftsMs[k], 0.5))}`).join(', ');
  console.error(`${size}: p50 by words, ours/FTS5+snippets ms: ${perWords}`);
  console.error(
    `${size}: flags and identifiers (${literals.length}, e.g. ${literals.slice(0, 3).join(' ')}): ours p50 / p95 ${f2(pct(literalMs, 0.5))} / ${f2(pct(literalMs, 0.95))} ms, FTS5+snippets ${f2(pct(literalFtsMs, 0.5))} / ${f2(pct(literalFtsMs, 0.95))} ms`,
  );
  console.error(`${size}: warm starts to the first right answer: ${warmStarts.map((ms) => f2(ms / 1000)).join(', ')} s (median ${f2(warmMs / 1000)})`);
  console.error(
    `${size}: search_context (3 words, threshold 0.7): p50 / p95 ${f2(pct(contextMs, 0.5))} / ${f2(pct(contextMs, 0.95))} ms (search_session hybrid, 3 words: ${f2(pct(hybridMs[2], 0.5))} ms)`,
  );
  if (!warmOnly)
    console.error(
      `${size}: first answer of a cold start (partial, while indexing) after ${f2(firstAnswerMs / 1000)} s; newest 10% of sessions searchable after ${f1(newestTenthMs / 1000)} s`,
    );
  rmSync(db, { force: true });
  rmSync(`${db}-wal`, { force: true });
  if (values.restart && !warmOnly) {
    rmSync(data, { recursive: true, force: true });
    const restart = await killAndRestart(c, join(dir, 'data-restart'), coldMs);
    restarts.push(`| ${size} | ${restart} |`);
    console.error(`${size}: ${restart}`);
  }
}
console.log(
  '| sessions | MB | MCP search_session lexical p50 / p95 / p99 ms | FTS5 + snippet() p50 / p95 / p99 ms | FTS5 no snippets p50 / p95 | ours ÷ FTS5+snippets p50 / p95 | cold build s ours / FTS5 (ratio) | hybrid p50 / p95 ms | cold build with vectors s | warm start to first right answer s | serving peak RSS MB ours / FTS5 | cold peak RSS MB ours / FTS5 | disk MB archive + snapshot / FTS5 db | known items hit@1 / hit@10 ours (hybrid) · hit@1 ours lexical · FTS5 |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
if (restarts.length) {
  console.log('\n| sessions | a first load killed with SIGKILL at a random point, then restarted |\n|---|---|');
  for (const r of restarts) console.log(r);
}
