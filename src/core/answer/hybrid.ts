/**
 * Hybrid ranking: three lists fused by weighted reciprocal-rank fusion (k 60): the full-text ranking (weight 1), what
 * each session's user asked, by stem (semantic/asked-index.ts, ASKED_WEIGHT) and the semantic leg's similarity
 * (SEMANTIC_WEIGHT times the share of the query it knows); the weights were fitted on the tuning split of the judged
 * set (bench/relevance/). Queries that ask for exact text (phrases, exclusions, required words, flags and paths) stay
 * lexical: a look-alike is not what they want. Sessions only the other lists found carry a relevance below any
 * full-text match.
 */
import type { SearchMode } from '../contracts.js';
import type { Scored } from '../index/engine.js';
import type { ParsedQuery } from '../index/query.js';
import type { SemanticIndex } from '../semantic/semantic-index.js';
import type { MeaningLeg } from '../embed/leg.js';
import { LETTER_OR_DIGIT } from '../index/tokenize.js';

export const RRF_K = 60;
export const SEMANTIC_WEIGHT = 0.25;
export const ASKED_WEIGHT = 1;
/**
 * The user's own model's list (embed/leg.ts), by default half as much as the words: twice the LSA leg's weight (a
 * sentence encoder knows paraphrase, which LSA does not), below the words and what was asked, so that a weak model
 * cannot overrule them. Not fitted here (no model ships with the product, and none can be fetched):
 * `npm run bench:relevance -- --embed-endpoint URL --embed-model NAME` prints the judged table at several weights
 * where a model exists, and `weight` in the config (sessionSearch.semantic.weight, --embed-weight) sets it.
 */
export const MODEL_WEIGHT = 0.5;
/** How many candidates each leg gives the fusion. */
export const FUSION_DEPTH = 50;

/** The mode a query runs in: the one asked for (hybrid by default), lexical while no model is ready or for exact queries. */
export function effectiveMode(asked: SearchMode | undefined, query: ParsedQuery, semantic: SemanticIndex, meaning?: MeaningLeg): SearchMode {
  return whyLexical(asked, query, semantic, meaning) ? 'lexical' : (asked ?? 'hybrid');
}

/** A word of letters or digits only: looked for as typed when typed alone, but meaning may still rank it when asked to. */

/**
 * Why a query asked to rank by meaning (`semantic`, or `hybrid` by default) ranks by words: no model yet, or it asks for
 * exact text. Undefined when it ranks as asked.
 */
export function whyLexical(
  asked: SearchMode | undefined,
  query: ParsedQuery,
  semantic: SemanticIndex,
  /** The user's own model: ready for a query whose vector was prepared. */
  meaning?: MeaningLeg,
): 'not-ready' | 'exact' | undefined {
  const mode = asked ?? 'hybrid';
  if (mode === 'lexical' || !query.terms.length) return undefined;
  if (query.phrases.length || query.excluded.length || query.excludedPhrases.length) return 'exact';
  // a word typed alone is a literal; asked for by meaning alone, it is ranked by meaning
  if (query.literals.some((l) => mode !== 'semantic' || !LETTER_OR_DIGIT.test(l))) return 'exact';
  if (semantic.state.status !== 'ready' && !meaning?.knows(query.text ?? '')) return 'not-ready';
  return undefined;
}

/**
 * A session the full-text ranking did not find (only the semantic leg or the asked stems did), as a scored hit:
 * relevance half its similarity (or its asked score against the best one's), matched terms none.
 */
function hitWithoutWords(key: string, similarity: number): Scored {
  return { doc: -1, key, score: similarity, relevance: Math.max(0, similarity) / 2, matchCount: 0, matchedTerms: 0 };
}

/**
 * How much the semantic list counts for a query: SEMANTIC_WEIGHT times the share of the query's information (IDF) the
 * model knows: a query of made-up or one-session words is not about anything the model learned.
 */
export function semanticWeight(knownShare: number): number {
  return SEMANTIC_WEIGHT * knownShare;
}
/** A lexical first result this many times as relevant as the second is kept first: the words found what was meant. */
export const CLEAR_WINNER = 2;

/**
 * The lists fused, best first, at most `limit`. Each hit's `relevance` becomes its fused score, the one it is sorted by:
 * the weighted reciprocal ranks it earned over the most a session first in every list earns (0–1). A first result the
 * words found far ahead of the rest, or first by both the words and what was asked, scores 1: rank fusion sees
 * positions, not gaps, and meaning alone does not overrule the two.
 */
export function fuse(
  lexical: Scored[],
  semantic: { key: string; similarity: number }[],
  limit: number | undefined,
  weight = SEMANTIC_WEIGHT,
  asked: { key: string; score: number }[] = [],
  /** Keywords: how many slots the query has (0 for a sentence): the first by words holding them all is kept first. */
  slots = 0,
  /** The user's own model's similarity (none without one). */
  model: { key: string; similarity: number }[] = [],
  modelWeight = MODEL_WEIGHT,
): Scored[] {
  const score = new Map<string, number>();
  const hits = new Map<string, Scored>();
  // every word match counts at its rank, so that a limit keeps the best of the same ranking; only the first `limit`
  // found by words alone can be among the best `limit`, beside those another list found
  const others = new Set([...semantic.map((s) => s.key), ...asked.map((a) => a.key), ...model.map((m) => m.key)]);
  const kept = limit === undefined ? lexical.length : limit + others.size;
  // (a hit may carry its place in a longer ranking than the list holds: ScoreOptions.alsoRank)
  lexical.forEach((hit, at) => {
    const rank = hit.rank ?? at;
    if (rank >= kept && !others.has(hit.key)) return;
    score.set(hit.key, 1 / (RRF_K + rank + 1));
    hits.set(hit.key, hit);
  });
  semantic.forEach(({ key, similarity }, rank) => {
    score.set(key, (score.get(key) ?? 0) + weight / (RRF_K + rank + 1));
    if (!hits.has(key)) hits.set(key, hitWithoutWords(key, similarity));
  });
  // a session only the asked stems found: relevance up to half, by its score against the best one's
  asked.forEach(({ key, score: s }, rank) => {
    score.set(key, (score.get(key) ?? 0) + ASKED_WEIGHT / (RRF_K + rank + 1));
    if (!hits.has(key)) hits.set(key, hitWithoutWords(key, s / asked[0].score));
  });
  model.forEach(({ key, similarity }, rank) => {
    score.set(key, (score.get(key) ?? 0) + modelWeight / (RRF_K + rank + 1));
    if (!hits.has(key)) hits.set(key, hitWithoutWords(key, similarity));
  });
  const most = ((lexical.length ? 1 : 0) + (semantic.length ? weight : 0) + (asked.length ? ASKED_WEIGHT : 0) + (model.length ? modelWeight : 0)) / (RRF_K + 1);
  const clear = lexical.length > 0 && (lexical.length === 1 || lexical[0].relevance >= CLEAR_WINNER * lexical[1].relevance);
  const agreed = lexical.length > 0 && asked[0]?.key === lexical[0].key;
  // keywords (no stop word typed): the first by words holds every one of them and the second lacks one
  const full = slots > 0 && slots <= 32 ? 2 ** slots - 1 : -1;
  const complete = (hit: Scored | undefined): boolean => full >= 0 && (hit?.held ?? 0) === full;
  const covers = lexical.length > 0 && complete(lexical[0]) && !complete(lexical[1]);
  if (clear || agreed || covers) score.set(lexical[0].key, most);
  const order = [...score].sort((a, b) => b[1] - a[1]);
  // nor is the first by words put below a result the words found far less well (ranked up by meaning alone)
  if (lexical.length && order[0][0] !== lexical[0].key && lexical[0].relevance >= CLEAR_WINNER * hits.get(order[0][0])!.relevance)
    score.set(lexical[0].key, most);
  const fused = [...score]
    .map(([key, s]) => ({ ...hits.get(key)!, relevance: most > 0 ? Math.min(1, s / most) : 0 }))
    .sort((a, b) => b.relevance - a.relevance);
  return limit === undefined ? fused : fused.slice(0, limit);
}

/** The semantic leg alone, as scored hits. */
export function semanticOnly(semantic: { key: string; similarity: number }[]): Scored[] {
  return semantic.map(({ key, similarity }) => ({ ...hitWithoutWords(key, similarity), relevance: Math.max(0, Math.min(1, similarity)) }));
}
