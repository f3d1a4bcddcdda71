/**
 * `npm run bench [-- --sizes 1000,10000 --queries 40]`: every engine on the same generated corpus in one process.
 * Prints build time, memory, index size, query latency by query length, and ranking quality, with ratios to ours.
 */
import { parseArgs } from 'node:util';
import { generateCorpus, labelledQueries, mrrAt10, ndcgAt10, type LabelledQuery } from './corpus.js';
import { fts5, linearScan, miniSearch, ours, type Engine } from './engines.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    queries: { type: 'string', default: '40' },
    scanMax: { type: 'string', default: '10000' },
    engines: { type: 'string', default: 'ours,fts5,minisearch,scan' },
  },
});
const chosen = new Set(values.engines.split(','));
const sizes = values.sizes.split(',').map(Number);
const perKind = Number(values.queries);
const WORD_COUNTS = [1, 2, 3, 6];
const REPEATS = 5;

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

interface Row {
  engine: string;
  buildMs: number;
  memMb: string;
  storedMb: string;
  p50: number[];
  p95: number[];
  mrr: Record<string, number>;
  ndcg: Record<string, number>;
}

function measure(engine: Engine, docs: ReturnType<typeof generateCorpus>['docs'], queries: Map<number, LabelledQuery[]>, scanLimited: boolean): Row {
  gc();
  const before = process.memoryUsage();
  const t0 = performance.now();
  engine.build(docs);
  const buildMs = performance.now() - t0;
  gc();
  const after = process.memoryUsage();
  const memDelta = after.rss - before.rss;
  // external includes ArrayBuffers (typed arrays); heapUsed is the JS heap.
  const heapDelta = after.heapUsed + after.external - (before.heapUsed + before.external);
  const p50: number[] = [];
  const p95: number[] = [];
  const quality: Record<string, { mrr: number[]; ndcg: number[] }> = { 'known-item': { mrr: [], ndcg: [] }, topic: { mrr: [], ndcg: [] } };
  // Warm-up on every query length before timing anything, so no group pays for the JIT compiler.
  for (const n of WORD_COUNTS) for (const q of queries.get(n)!.slice(0, scanLimited ? 1 : undefined)) engine.query(q.text);
  for (const n of WORD_COUNTS) {
    const qs = queries.get(n)!;
    const use = scanLimited ? qs.slice(0, 10) : qs;
    const times: number[] = [];
    for (const q of use) {
      // Each query runs REPEATS times; its time is the median run, which damps a shared machine's noise.
      const runs: number[] = [];
      let ranked: number[] = [];
      for (let r = 0; r < REPEATS; r++) {
        const s = performance.now();
        ranked = engine.query(q.text);
        runs.push(performance.now() - s);
      }
      times.push(runs.sort((a, b) => a - b)[Math.floor(REPEATS / 2)]);
      quality[q.kind].mrr.push(mrrAt10(ranked, q.relevant));
      quality[q.kind].ndcg.push(ndcgAt10(ranked, q.relevant));
    }
    times.sort((a, b) => a - b);
    p50.push(pct(times, 50));
    p95.push(pct(times, 95));
  }
  const avg = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const row: Row = {
    engine: engine.name,
    buildMs,
    memMb: `${mb(Math.max(0, heapDelta))} / ${mb(Math.max(0, memDelta))}`,
    storedMb: engine.storedBytes ? mb(engine.storedBytes()) : '–',
    p50,
    p95,
    mrr: { 'known-item': avg(quality['known-item'].mrr), topic: avg(quality.topic.mrr) },
    ndcg: { 'known-item': avg(quality['known-item'].ndcg), topic: avg(quality.topic.ndcg) },
  };
  engine.close?.();
  return row;
}

const f = (x: number, d = 2): string => x.toFixed(d);

for (const size of sizes) {
  const corpus = generateCorpus(size);
  const queries = new Map(WORD_COUNTS.map((n) => [n, labelledQueries(corpus, perKind, n)]));
  console.log(`\n## ${size} sessions, ${mb(corpus.rawBytes)} MB of text, ${perKind} known-item + ${perKind} topic queries per query length\n`);
  const engines = [
    ...(chosen.has('ours') ? [ours()] : []),
    ...(chosen.has('fts5') ? [fts5()] : []),
    ...(chosen.has('minisearch') ? [miniSearch()] : []),
    ...(chosen.has('scan') && size <= Number(values.scanMax) ? [linearScan()] : []),
  ];
  const rows = engines.map((e) => measure(e, corpus.docs, queries, e.name.startsWith('linear')));
  const base = rows[0];
  console.log('| engine | build s | heap Δ / RSS Δ MB | db MB | p50 ms 1/2/3/6 words | p95 ms 1/2/3/6 words | MRR@10 known / topic | nDCG@10 known / topic |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.engine} | ${f(r.buildMs / 1000)} | ${r.memMb} | ${r.storedMb} | ${r.p50.map((x) => f(x, 3)).join(' / ')} | ${r.p95.map((x) => f(x, 3)).join(' / ')} | ${f(r.mrr['known-item'], 3)} / ${f(r.mrr.topic, 3)} | ${f(r.ndcg['known-item'], 3)} / ${f(r.ndcg.topic, 3)} |`,
    );
  }
  console.log('\nRatios (peer ÷ ours; above 1 means ours is faster / smaller):\n');
  for (const r of rows.slice(1)) {
    const p50 = r.p50.map((x, i) => f(x / Math.max(1e-6, base.p50[i]), 1)).join(' / ');
    console.log(`- ${r.engine}: build ${f(r.buildMs / base.buildMs)}×, query p50 ${p50}× (1/2/3/6 words)`);
  }
}
