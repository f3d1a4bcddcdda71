/**
 * search_context: blocks (turns) instead of sessions, each with a calibrated 0–1 score: the chance that the block is
 * relevant, from the share of the query's information (IDF-weighted words) it holds, how its session ranks (words and
 * meaning), and its kind; fitted on the judged set so that seed 003's table (≥ 0.9 highly relevant, below 0.7
 * filtered out) means what it says.
 */
import type { ContextBlock, ContextResponse, SearchMode } from '../contracts.js';
import { overlaps, type DayRange } from '../dates.js';
import type { ParsedQuery } from '../index/query.js';
import { findSnippets, matcherFor } from '../index/snippets.js';
import { forEachToken } from '../index/tokenize.js';
import type { BlockType, Session } from '../model.js';
import { decisionsIn } from '../ingest/decisions.js';
import { planQuery, rankSessions, type QueryPlan } from './search.js';
import type { LibraryView } from './view.js';
import { normalisedTags, sessionTags, tagFilter } from './tags.js';

export interface ContextQuery {
  sessions?: string[];
  tags?: string[];
  /** With `tags`: only blocks of sessions carrying every one of them (any of them otherwise). */
  allTags?: boolean;
  types?: BlockType[];
  limit: number;
  threshold: number;
  source?: string;
  project?: string;
  mode?: SearchMode;
}

/** Tags we can derive without a model: the source, the project folder's name, the branch and the block's kind. */
const SESSIONS_EXAMINED = 50;

/** What a block's score is made of: the share of the query's information it holds, how its session ranks, its kind. */
export interface BlockFeatures {
  /** IDF-weighted share of the query's words the block itself contains (1 = all). */
  coverage: number;
  /** Its session's relevance relative to the best session's. */
  sessionShare: number;
  /** 1 for the best-ranked session, 1/2 for the next… */
  reciprocalRank: number;
  /** 1 for a conversation turn (the user or the agent speaking), 0 for tool output, files, thinking. */
  conversation: number;
}

/**
 * The calibrated score: a logistic function of the features, fitted on the judged set's tuning split (a block is
 * relevant when its session is graded 2 or 3; `npm run bench:calibrate`), so that a score reads as the chance that
 * the block is relevant: of blocks scored ≥ 0.9, about nine in ten are (docs/BENCHMARKS.md).
 */
export const CALIBRATION = { coverage: 0.9, sessionShare: 3.7, reciprocalRank: 3.4, conversation: 1.1, bias: -6.8 };

export function calibratedScore(f: BlockFeatures, w = CALIBRATION): number {
  const z = w.bias + w.coverage * f.coverage + w.sessionShare * f.sessionShare + w.reciprocalRank * f.reciprocalRank + w.conversation * f.conversation;
  return 1 / (1 + Math.exp(-z));
}

/**
 * Every block of the best sessions that holds a query word, with its features. A session none of whose blocks could
 * score `threshold` (its rank and share given, the best coverage and kind assumed) is not read: at the default 0.7
 * that is every session but the first few, and reading a session's turns is most of the cost.
 */
export function contextCandidates(
  lib: LibraryView,
  asked: ParsedQuery | QueryPlan,
  range: DayRange,
  options: Omit<ContextQuery, 'limit' | 'threshold'>,
  threshold = 0,
): { block: Omit<ContextBlock, 'score'>; features: BlockFeatures }[] {
  const wanted = options.sessions?.length ? new Set(options.sessions) : undefined;
  const byTags = tagFilter(lib, options.tags, options.allTags);
  // a query already planned keeps its expansions (the team archive's candidates ranked by the local plan)
  // only the best SESSIONS_EXAMINED are read: ranked with that limit (the best of the same ranking, not every match with
  // its objects, tens of thousands for a common word), unless a filter applied after the ranking drops some of them
  const limit = wanted || byTags ? undefined : SESSIONS_EXAMINED;
  const filters = { source: options.source, project: options.project, mode: options.mode, limit };
  const plan = 'slots' in asked ? { ...asked, options: filters, range } : planQuery(lib.index, asked, filters, range, lib.shortForms());
  const { query } = plan;
  const ranked = rankSessions(lib, plan).filter((hit) => {
    const s = lib.sessions.get(hit.key)!;
    if (wanted && !wanted.has(s.id) && !wanted.has(s.nativeId)) return false;
    return !byTags || byTags(s);
  });
  // a block covers a query word when it holds it or one of its forms (another word form, a short form, an identifier's
  // parts all), at that form's weight: what the block itself holds, whatever its session
  const idf = (t: string): number => lib.index.idf(t);
  const decisionsWanted = options.types?.includes('decision') ?? false;
  // (a subject word no session says, "database", still weighs for decisions: their sessions' topics hold it)
  const floor = decisionsWanted ? 1 : 0;
  const slots = plan.slots
    .filter((slot) => query.terms.includes(slot.alts[0].term))
    .map((slot) => ({ alts: slot.alts, weight: Math.max(floor, ...slot.alts.map((a) => Math.max(...(a.all ?? [a.term]).map(idf)))) }));
  const total = slots.reduce((a, s) => a + s.weight, 0);
  const needed = new Set(slots.flatMap((s) => s.alts.flatMap((a) => a.all ?? [a.term])));
  const matcher = matcherFor(plan.shown);
  const out: { block: Omit<ContextBlock, 'score'>; features: BlockFeatures }[] = [];
  if (!total || !matcher) return out;
  if (decisionsWanted)
    ranked.push(...aboutSubject(lib, ranked, needed, range, options, (s) => (!wanted || wanted.has(s.id) || wanted.has(s.nativeId)) && (!byTags || byTags(s))));
  const best = ranked[0]?.relevance || 1;
  ranked.slice(0, SESSIONS_EXAMINED).forEach((hit, rank) => {
    const sessionShare = Math.min(1, hit.relevance / best);
    const reciprocalRank = 1 / (rank + 1);
    if (calibratedScore({ coverage: 1, sessionShare, reciprocalRank, conversation: 1 }) < threshold - 0.0005) return; // (scores are shown, and held to it, rounded)
    const s = lib.sessions.get(hit.key)!;
    // a decision is about its session's subject too: a topic the query names ("database") counts as held by it
    const topics = decisionsWanted ? new Set(sessionTags(lib, s)) : undefined;
    // (one turn at a time: a session of many MB is not held parsed whole, nor pushed into the turn cache)
    // (a turn of a kind not asked for is not read, unless decisions are: any turn may hold one)
    const kinds = options.types?.length && !decisionsWanted ? (kind: BlockType) => options.types!.includes(kind) : undefined;
    lib.turns.forEach(
      s,
      (turn) => {
        const decided = decisionsWanted ? decisionsIn(turn) : [];
        const type: BlockType = decided.length ? 'decision' : turn.kind;
        if (options.types?.length && !options.types.includes(type)) return;
        matcher.lastIndex = 0;
        const named = decided.length && [...needed].some((t) => topics?.has(t));
        if (!matcher.test(turn.text) && !named) return;
        const present = new Set<string>();
        forEachToken(turn.text, (tok) => needed.has(tok) && present.add(tok), false, true);
        if (decided.length) for (const t of needed) if (topics?.has(t)) present.add(t);
        let covered = 0;
        for (const slot of slots) {
          const held = slot.alts.filter((a) => (a.all ?? [a.term]).every((t) => present.has(t)));
          // (relative to the word itself: a question word is not discounted here, its IDF already is low)
          covered += slot.weight * Math.min(1, Math.max(0, ...held.map((a) => a.weight / slot.alts[0].weight)));
        }
        const features = {
          coverage: covered / total,
          sessionShare,
          reciprocalRank,
          conversation: turn.kind === 'conversation' ? 1 : 0,
        };
        const snippet = decided.length ? decided.join(' … ') : (findSnippets([turn], plan.shown, { max: 1 })[0]?.text ?? turn.text.slice(0, 300));
        out.push({
          block: {
            blockId: turn.id,
            sessionId: s.id,
            sessionName: s.topic,
            type,
            snippet,
            tags: [...sessionTags(lib, s), type],
            createdAt: turn.timestamp ?? s.created,
          },
          features,
        });
      },
      kinds,
    );
  });
  return out;
}

/**
 * Decisions are asked for by subject ("database"), which the statement need not say ("let's go with PostgreSQL"): the
 * sessions whose topics name a query word come after the ranked ones, at half the best one's relevance.
 */
function aboutSubject(
  lib: LibraryView,
  ranked: { key: string; relevance: number }[],
  words: Set<string>,
  range: DayRange,
  options: Omit<ContextQuery, 'limit' | 'threshold'>,
  keep: (s: Session) => boolean,
): ReturnType<typeof rankSessions> {
  const seen = new Set(ranked.map((h) => h.key));
  const relevance = (ranked[0]?.relevance ?? 1) / 2;
  const out: ReturnType<typeof rankSessions> = [];
  for (const s of lib.sessions.values()) {
    if (seen.has(s.id) || !s.topics?.some((t) => words.has(t)) || !keep(s)) continue;
    if ((options.source && s.source !== options.source) || !overlaps(range, s.firstDay, s.lastDay)) continue;
    if (options.project && !lib.worktrees.inProject(s.project, options.project)) continue;
    out.push({ doc: -1, key: s.id, score: relevance, relevance, matchCount: 0, matchedTerms: 0, heldTerms: 0 } as ReturnType<typeof rankSessions>[number]);
  }
  return out.sort((a, b) => (lib.sessions.get(b.key)!.updated > lib.sessions.get(a.key)!.updated ? 1 : -1));
}

export function searchContext(lib: LibraryView, query: ParsedQuery | QueryPlan, range: DayRange, options: ContextQuery): ContextResponse {
  const started = performance.now();
  const blocks: ContextBlock[] = [];
  // several tags, any of them: a block carrying more of them scores higher (a quarter of its score is that share)
  const wanted = new Set(normalisedTags(options.tags));
  const tagged = (tags: string[]): number => (wanted.size < 2 || options.allTags ? 1 : 0.75 + (0.25 * tags.filter((t) => wanted.has(t)).length) / wanted.size);
  for (const { block, features } of contextCandidates(lib, query, range, options, options.threshold)) {
    // the score as shown is the one the threshold is held to
    const score = Math.round(calibratedScore(features) * tagged(block.tags) * 1000) / 1000;
    if (score >= options.threshold) blocks.push({ ...block, score });
  }
  blocks.sort((a, b) => b.score - a.score || (a.createdAt < b.createdAt ? 1 : -1));
  return { results: blocks.slice(0, options.limit), totalMatches: blocks.length, searchTime: Math.round(performance.now() - started) };
}
