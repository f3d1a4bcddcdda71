/** The judged set's split and measures, shared by bench:relevance and bench:semantic. */
import { crc32 } from 'node:zlib';
import type { RelevanceQuery } from './corpus.js';

/** The tuning split: a third of the queries, chosen by a hash of their id before any was run. */
export const isTuning = (q: RelevanceQuery): boolean => crc32(q.id) % 3 === 0;

/** nDCG@10 with gains 2^grade - 1; MRR@10 and Recall@10 count grade ≥ 2 as relevant (recall over at most 10). */
export function score(ids: string[], judged: Record<string, number>): { ndcg: number; mrr: number; recall: number } {
  const gain = (g: number): number => 2 ** g - 1;
  const dcg = ids.slice(0, 10).reduce((sum, id, i) => sum + gain(judged[id] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(judged)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, g, i) => sum + gain(g) / Math.log2(i + 2), 0);
  const relevant = Object.values(judged).filter((g) => g >= 2).length;
  const first = ids.slice(0, 10).findIndex((id) => (judged[id] ?? 0) >= 2);
  const found = ids.slice(0, 10).filter((id) => (judged[id] ?? 0) >= 2).length;
  return { ndcg: ideal ? dcg / ideal : 0, mrr: first === -1 ? 0 : 1 / (first + 1), recall: relevant ? found / Math.min(10, relevant) : 0 };
}
