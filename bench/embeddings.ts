/**
 * `npm run bench:embeddings [-- --size 10000 --dims 384]`: what the user's own model costs us on bench:real's corpus
 * (its data folder, as bench:files uses it), apart from the model's own compute: the units a history makes (how many,
 * how many characters: what a model would be given), the time and memory of embedding them through a local endpoint
 * that answers at once (a deterministic fake of `dims` dimensions: our pipeline only), the vectors' memory and file,
 * and the search time of the model's list and of a whole hybrid answer with it and without it. The model's compute per
 * 10,000 sessions is the characters here over its own throughput (docs/BENCHMARKS.md).
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openCore } from '../src/core/library/open.js';
import { MemoryLogger } from '../src/core/log.js';
import { defaultRoots, splitRoots } from '../src/core/ingest/sources/registry.js';
import { Persistence } from '../src/core/store/persistence.js';
import { embeddingUnits } from '../src/core/embed/units.js';
import { ROOT } from '../test/helpers.js';
import { startFakeEndpoint } from '../test/embed-server.js';
import type { RealCorpus } from './real-corpus.js';

const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' }, dims: { type: 'string', default: '384' } } });
const dir = join(ROOT, 'bench', '.out', 'real', values.size!);
if (!existsSync(join(dir, 'corpus.json'))) throw new Error(`no corpus of ${values.size} sessions: run npm run bench:real -- --sizes ${values.size} first`);
const c = JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')) as RealCorpus;
const data = join(dir, 'data');
const file = Persistence.embeddingsPath(data);
rmSync(file, { force: true });
const roots = splitRoots(defaultRoots({ HOME: c.home })).machine;
const pct = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const mb = (n: number): string => (n / 1048576).toFixed(1);

const endpoint = await startFakeEndpoint({ fake: 0 }, Number(values.dims));
const library = openCore({ roots, logger: new MemoryLogger(), dataDir: data, env: { HOME: c.home } });
await library.load();
const sessions = [...library.sessions.values()];

// the units a history makes (read from the archive, as the leg reads them)
const counts: number[] = [];
let chars = 0;
for (const s of sessions) {
  const units = embeddingUnits({ topic: s.topic, turns: library.turns.conversation(s) });
  counts.push(units.length);
  chars += units.reduce((n, u) => n + u.text.length, 0);
}
const units = counts.reduce((a, b) => a + b, 0);

const queries = [
  'retry loop backoff',
  'why did the build fail on the ci',
  'database migration for the users table',
  'rename the config option',
  'flaky test timeout',
];
const timed = (run: () => void, n = 200): number[] => {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    run();
    ms.push(performance.now() - t);
  }
  return ms;
};
const without = timed(() => library.search(queries[Math.floor(Math.random() * queries.length)], { limit: 10 }));

global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
const started = performance.now();
library.useModel({ endpoint: endpoint.url, model: 'fake' });
await library.meaning!.settled();
const embedMs = performance.now() - started;
clearInterval(sampler);
global.gc?.();
const heapAfter = process.memoryUsage().heapUsed;
for (const q of queries) await library.prepare(q);
const modelList = timed(() => library.meaning!.search(queries[Math.floor(Math.random() * queries.length)], 50));
const withModel = timed(() => library.search(queries[Math.floor(Math.random() * queries.length)], { limit: 10 }));
const queryMs: number[] = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  await library.prepare(`${queries[i % queries.length]} ${i}`);
  queryMs.push(performance.now() - t);
}
await library.close();
const fileBytes = existsSync(file) ? statSync(file).size : NaN;
await endpoint.close();

const tokens = chars / 4;
console.log(`Embedding units of ${sessions.length} sessions (${values.dims} dimensions, a local endpoint answering at once):\n`);
console.log('| measure | value |\n|---|---|');
console.log(
  `| units (title, prompts, reply runs) | ${units} (${(units / sessions.length).toFixed(1)} a session; p50 ${pct(counts, 0.5)}, p95 ${pct(counts, 0.95)}, max ${Math.max(...counts)}) |`,
);
console.log(`| characters given to the model | ${mb(chars)} M (≈ ${(tokens / 1e6).toFixed(1)} M tokens at 4 characters a token) |`);
console.log(
  `| our pipeline (read units, send, quantise, store), model time excluded | ${(embedMs / 1000).toFixed(1)} s (${Math.round(units / (embedMs / 1000))} units/s) |`,
);
console.log(
  `| memory: vectors held (heap growth after collection) | ${mb(heapAfter - heapBefore)} MB; resident peak +${mb(rssPeak - rssBefore)} MB while embedding |`,
);
console.log(`| vectors file (index/embeddings.bin) | ${mb(fileBytes)} MB |`);
console.log(`| the model's list (50 best of every session) p50 / p95 | ${pct(modelList, 0.5).toFixed(2)} / ${pct(modelList, 0.95).toFixed(2)} ms |`);
console.log(`| a hybrid answer (limit 10) without / with the model, p50 | ${pct(without, 0.5).toFixed(2)} / ${pct(withModel, 0.5).toFixed(2)} ms |`);
console.log(`| asking the endpoint for a query's vector (HTTP round trip, fake model), p50 | ${pct(queryMs, 0.5).toFixed(2)} ms |`);
for (const rate of [1_000, 5_000])
  console.log(`| a model reading ${rate} tokens/s would take | ${(tokens / rate / 3600).toFixed(1)} h of its own compute for these sessions |`);
rmSync(file, { force: true });
