/**
 * `npm run bench:workspaces [-- --size 1000]`: the archive's search view (the panel's workspace line and Exchanges by
 * workspace) on the corpus shaped like real histories that `npm run bench:real` writes (bench/.out/real/<size>, made
 * here when missing). A library opens the data folder bench:real left (built here when there is none), then for
 * queries of 1 to 3 words drawn from the sample prompts: the time until the first workspace answers and until the
 * last, the workspaces and turns matched, beside the ranked sessions answer (search_session, 10 results); peak RSS.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openCore } from '../src/core/library/open.js';
import { silentLogger } from '../src/core/log.js';
import type { SourceId } from '../src/core/model.js';
import { ROOT } from '../test/helpers.js';
import { realCorpus, type RealCorpus } from './real-corpus.js';
import { peakRssMb } from './real-fts5.js';

const { values } = parseArgs({ options: { size: { type: 'string', default: '1000' } } });
const size = Number(values.size);
const dir = join(ROOT, 'bench', '.out', 'real', String(size));
const marker = join(dir, 'corpus.json');
let corpus: RealCorpus;
if (existsSync(marker)) corpus = JSON.parse(readFileSync(marker, 'utf8')) as RealCorpus;
else {
  mkdirSync(dir, { recursive: true });
  corpus = await realCorpus(dir, size);
  writeFileSync(marker, JSON.stringify(corpus));
}
const library = openCore({
  roots: corpus.roots.map((r) => ({ source: r.source as SourceId, path: r.path })),
  logger: silentLogger,
  env: { HOME: corpus.home },
  dataDir: join(dir, 'data'),
});
const started = performance.now();
await library.load();
console.error(`library ready after ${((performance.now() - started) / 1000).toFixed(1)} s (${library.sessions.size} sessions)`);

const QUERIES: Record<number, string[]> = {
  1: ['migration', 'websocket', 'timeout', 'docker', 'pagination', 'tokenizer', 'flaky', 'retry'],
  2: ['database migration', 'auth token', 'failing test', 'build error', 'cache invalidation', 'rate limit'],
  3: ['fix the failing test', 'add dark mode toggle', 'docker compose healthcheck', 'refresh token rotation'],
};
const pct = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

console.log(
  `| words | queries | first workspace p50 / p95 ms | all workspaces p50 / p95 ms | workspaces matched (median) | turns matched (median) | search_session p50 ms |`,
);
console.log('|---|---|---|---|---|---|---|');
for (const [words, queries] of Object.entries(QUERIES)) {
  const first: number[] = [];
  const all: number[] = [];
  const matched: number[] = [];
  const turns: number[] = [];
  const ranked: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    let firstAt: number | undefined;
    const summary = await library.searchWorkspaces(q, {}, () => (firstAt ??= performance.now() - t0));
    all.push(performance.now() - t0);
    first.push(firstAt ?? performance.now() - t0);
    matched.push(summary.workspacesMatched);
    turns.push(summary.turnsMatched);
    const t1 = performance.now();
    library.search(q, { limit: 10, mode: 'lexical' });
    ranked.push(performance.now() - t1);
  }
  const f = (n: number): string => n.toFixed(0);
  console.log(
    `| ${words} | ${queries.length} | ${f(pct(first, 0.5))} / ${f(pct(first, 0.95))} | ${f(pct(all, 0.5))} / ${f(pct(all, 0.95))} | ${pct(matched, 0.5)} | ${pct(turns, 0.5)} | ${pct(ranked, 0.5).toFixed(1)} |`,
  );
}
console.log(`\n${size} sessions; peak RSS of this process ${peakRssMb().toFixed(0)} MB`);
await library.close();
