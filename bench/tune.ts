/**
 * `node --import tsx bench/tune.ts [--size 10000]`: ranking quality of our BM25F under several parameter sets, on the
 * benchmark's labelled queries. This is how DEFAULT_RANKING was chosen; it prints, it asserts nothing.
 */
import { parseArgs } from 'node:util';
import { generateCorpus, labelledQueries, mrrAt10, ndcgAt10 } from './corpus.js';
import { ours } from './engines.js';
import { DEFAULT_RANKING, type RankingParams } from '../src/core/index/engine.js';

const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' }, queries: { type: 'string', default: '40' } } });
const corpus = generateCorpus(Number(values.size));
const queries = [1, 2, 3, 6].flatMap((n) => labelledQueries(corpus, Number(values.queries), n));
const variants: [string, RankingParams][] = [
  ['default (b .5, floor .7, coordination 1)', DEFAULT_RANKING],
  ['classic BM25F b .75', { k1: 1.2, b: [0, 0.75, 0.75], minNorm: 0, coordination: 0 }],
  ['never boost short fields', { k1: 1.2, b: [0, 0.75, 0.75], minNorm: 1, coordination: 0 }],
  ['classic b .5 coord 1', { k1: 1.2, b: [0, 0.5, 0.5], minNorm: 0, coordination: 1 }],
  ['b .5 floor .7 coord 1', { k1: 1.2, b: [0, 0.5, 0.5], minNorm: 0.7, coordination: 1 }],
  ['b .5 floor .8 coord 1', { k1: 1.2, b: [0, 0.5, 0.5], minNorm: 0.8, coordination: 1 }],
  ['b .4 floor .7 coord 1', { k1: 1.2, b: [0, 0.4, 0.4], minNorm: 0.7, coordination: 1 }],
  ['b .3 floor .7 coord 1', { k1: 1.2, b: [0, 0.3, 0.3], minNorm: 0.7, coordination: 1 }],
];
for (const [name, params] of variants) {
  const engine = ours(params, name);
  engine.build(corpus.docs);
  const q = { 'known-item': { mrr: 0, ndcg: 0, n: 0 }, topic: { mrr: 0, ndcg: 0, n: 0 } };
  for (const query of queries) {
    const ranked = engine.query(query.text);
    const k = q[query.kind];
    k.mrr += mrrAt10(ranked, query.relevant);
    k.ndcg += ndcgAt10(ranked, query.relevant);
    k.n++;
  }
  const f = (x: number, n: number): string => (x / n).toFixed(3);
  console.log(
    `${name.padEnd(34)} known MRR ${f(q['known-item'].mrr, q['known-item'].n)} nDCG ${f(q['known-item'].ndcg, q['known-item'].n)} | topic MRR ${f(q.topic.mrr, q.topic.n)} nDCG ${f(q.topic.ndcg, q.topic.n)}`,
  );
}
