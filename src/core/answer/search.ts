/**
 * search_session over the library, one way through: the query is parsed once into a plan; the engine ranks with
 * filters on session metadata only; phrases, roles and kinds are checked on the best candidates (widening until
 * `limit` pass); snippets are cut from the session's text layout and come back with their matched ranges.
 */
import type { SearchOptions, SearchResponse, SearchResult, WorkspaceSummary } from '../contracts.js';
import { overlaps, type DayRange } from '../dates.js';
import type { ParsedQuery } from '../index/query.js';
import { highlightRanges, matcherFor, matcherNeedles, phraseMatcher, sessionSnippets, turnsMatch } from '../index/snippets.js';
import { scanNeedles } from '../store/scan-turns.js';
import type { SnippetTurnOptions } from '../index/snippet-turns.js';
import { expandTerms, type Vocabulary } from '../index/expand.js';
import type { ShortForms } from '../index/short-forms.js';
import { hasCjk, tokenize } from '../index/tokenize.js';
import type { Session } from '../model.js';
import type { QuerySlot, Scored } from '../index/engine.js';
import { heldTerms, uniqueSlots } from '../index/ranking.js';
import type { LibraryView } from './view.js';
import { sessionTags, tagFilter, tagShare } from './tags.js';
import { countWorkspaces, streamWorkspaces, type WorkspaceAnswer } from './workspaces.js';
import type { TurnStore } from '../store/turn-store.js';
import { findSnippetsRaw } from '../store/session-layout.js';
import { addNote, searchCutAtNote, searchCutNote } from './fit.js';
import { sessionFields } from './sessions.js';
import { effectiveMode, fuse, FUSION_DEPTH, semanticOnly, semanticWeight, whyLexical } from './hybrid.js';
import { firstPrompt } from '../model.js';
import { resumeCommand } from '../resume.js';
import { containsPhrase, LITERAL_DEPTH, LITERAL_WINDOW, literalsFirst, literalWords } from './literals.js';

export type { LibraryView };

/** A query worked out once: what the engine ranks, what the best candidates are checked for, what snippets mark. */
export interface QueryPlan {
  query: ParsedQuery;
  /** The query's words with their other forms and near spellings: what the engine ranks. */
  slots: QuerySlot[];
  /** Near spellings used for words no session holds. */
  alsoMatched: string[];
  /** The query with every form ranked: what snippets look for and highlights mark. */
  shown: ParsedQuery;
  /** Terms every result holds (the words of its required phrases). */
  required: string[];
  /** Any word ranked, or phrase, as whole words: snippets and highlights. */
  matcher: RegExp | undefined;
  options: SearchOptions;
  range: DayRange;
}

export function planQuery(vocabulary: Vocabulary, query: ParsedQuery, options: SearchOptions, range: DayRange, shortForms?: ShortForms): QueryPlan {
  const { slots, alsoMatched } = expandTerms(query.terms, vocabulary, query.parts, shortForms);
  // the words as typed are shown too: one no session's index holds may still stand past the indexed first page of a
  // long output, where the workspace view and the reader find it
  const shown = { ...query, typed: query.terms, terms: [...new Set([...query.terms, ...slots.flatMap((s) => s.alts.flatMap((a) => a.all ?? a.term))])] };
  // (a lone character of a script without spaces is held only inside the pairs the index keeps: not required as such)
  const required = [...new Set(query.phrases.flatMap((words) => tokenize(words.join(' '))))].filter((t) => [...t].length > 1 || !hasCjk(t));
  return { query, slots, alsoMatched, shown, required, matcher: matcherFor(shown), options, range };
}

/** Filters on what every session keeps in memory (source, project, days): no turn is read. Undefined without filters. */
function metadataFilter(plan: QueryPlan, lib: LibraryView): ((s: Session) => boolean) | undefined {
  const { options, range } = plan;
  const byTags = tagFilter(lib, options.tags, options.allTags);
  if (!options.source && !options.project && !options.branch && !range.from && !range.to && !byTags) return undefined;
  return (s) =>
    (!options.source || s.source === options.source) &&
    (!options.branch || s.branch === options.branch) &&
    (!options.project || lib.worktrees.inProject(s.project, options.project, options.projectScope === 'exact')) &&
    overlaps(range, s.firstDay, s.lastDay) &&
    (!byTags || byTags(s));
}

/** Checks that read a session's turns (phrases, excluded phrases, role, kind); undefined when the plan has none. */
function contentCheck(plan: QueryPlan, store: TurnStore): ((s: Session) => boolean) | undefined {
  const { query, options } = plan;
  const phrases = query.phrases.map(phraseMatcher);
  const excludedPhrases = query.excludedPhrases.map(phraseMatcher);
  const byTurn = options.role !== undefined || options.kind !== undefined;
  if (!phrases.length && !excludedPhrases.length && !byTurn) return undefined;
  return (s) =>
    phrases.every((p) => containsPhrase(store, s, p)) &&
    !excludedPhrases.some((p) => containsPhrase(store, s, p)) &&
    (!byTurn || turnsMatch(store.all(s), plan.shown, options.role, options.kind));
}

/** How many sessions a plan matches in all, where a ranking cut by its limit learned it (undefined: not known). */
export interface Counted {
  total?: number;
}

/**
 * The ranked sessions of a plan. Metadata filters run inside the engine; checks that read turns run on the ranked
 * candidates in order until `limit` pass or none are left (the ranking is made once, not again for each widening).
 * `counted` is told how many match in all, where that is known without reading turns.
 */
export function rankSessions(lib: LibraryView, plan: QueryPlan, counted: Counted = {}): Scored[] {
  const share = tagShare(lib, plan.options.tags, plan.options.allTags);
  if (!share) return rankByQuery(lib, plan, counted);
  // several tags, any of them: a session carrying more of them ranks above all that carry fewer (a band of the score)
  const n = new Set(plan.options.tags).size;
  const hits = rankByQuery(lib, { ...plan, options: { ...plan.options, limit: undefined } }).map((h) => {
    const carried = Math.max(1, Math.round(share(lib.sessions.get(h.key)!) * n));
    return { ...h, relevance: (carried - 1 + 0.999 * h.relevance) / n };
  });
  counted.total = hits.length;
  return inScoreOrder(lib, hits).slice(0, plan.options.limit);
}

function rankByQuery(lib: LibraryView, plan: QueryPlan, counted: Counted = {}): Scored[] {
  const limit = plan.options.limit;
  const mode = effectiveMode(plan.options.mode, plan.query, lib.semantic, lib.meaning);
  if (mode !== 'lexical') {
    const meta = metadataFilter(plan, lib);
    const check = contentCheck(plan, lib.turns);
    const accept = (key: string): boolean => {
      const s = lib.sessions.get(key);
      return !!s && (!meta || meta(s)) && (!check || check(s));
    };
    const similar = lib.semantic.search(plan.query.terms, FUSION_DEPTH, accept);
    const meant = lib.meaning?.search(plan.query.text ?? '', FUSION_DEPTH, accept) ?? [];
    if (mode === 'semantic') {
      const all = inScoreOrder(lib, semanticOnly(meant.length ? meant : similar));
      counted.total = all.length;
      return all.slice(0, limit);
    }
    const asked = lib.semantic.searchAsked(plan.slots, FUSION_DEPTH, accept);
    // every session holding a word is fused at its rank (with no limit the answer is all matches; a limit keeps the best
    // of the same ranking: the best `n` by words, and the others' places among all of them); where turns must be read
    // to check a candidate, only the best are
    const others = new Set([...similar, ...asked, ...meant].map((h) => h.key));
    const idf = plan.query.terms.map((t) => lib.index.idf(t));
    const total = idf.reduce((a, b) => a + b, 0);
    const known = plan.query.terms.reduce((sum, t, i) => sum + (lib.semantic.knows(t) ? idf[i] : 0), 0);
    const fusedTo = (n: number | undefined): Scored[] => {
      const words: Counted = {};
      const lexical = check
        ? rankChecked(lib, plan, n === undefined ? undefined : Math.max(n, FUSION_DEPTH))
        : rankChecked(lib, plan, n === undefined ? undefined : n + others.size, others, words);
      // (with no limit the answer is all of them: every session holding a word, and those the other lists found)
      if (words.total !== undefined) {
        const byWords = new Set(lexical.map((h) => h.key));
        counted.total = words.total + [...others].filter((key) => !byWords.has(key)).length;
      }
      const slots = plan.query.terse ? uniqueSlots(plan.slots).length : 0;
      return fuse(lexical, similar, n, semanticWeight(total ? known / total : 0), asked, slots, meant, lib.meaning?.weight);
    };
    const fused = bestInScoreOrder(lib, limit, fusedTo);
    return limit === undefined ? fused : withWordCounts(lib, plan, fused);
  }
  if (!plan.query.literals.length) return bestInScoreOrder(lib, limit, (n) => rankChecked(lib, plan, n, undefined, counted));
  // the best by words are looked at for the literals, and further down, a session whose user asked every word of a
  // literal (by its asked stems: no turn read); the others keep their place below those that hold them
  const parts = plan.query.literals.map(literalWords);
  const depth = contentCheck(plan, lib.turns) ? LITERAL_WINDOW : LITERAL_DEPTH; // (phrase and role checks read each candidate's turns)
  const looked = (h: Scored, i: number): boolean =>
    i < LITERAL_WINDOW || (i < depth && parts.some((words) => words.length > 0 && lib.semantic.asksAll(h.key, words)));
  // (literalsFirst keeps the ranking's order and lifts whole bands: what lies past the best `n` is in the lowest)
  return bestInScoreOrder(lib, limit, (n) =>
    literalsFirst(lib, plan, rankChecked(lib, plan, n === undefined ? undefined : Math.max(n, depth), undefined, counted), looked),
  );
}

/**
 * Hits the fusion took from meaning or what was asked, below the depth the words' ranking was cut at, may hold the words
 * too: their counts are looked up, so that `matchCount: 0` always means none of the words.
 */
function withWordCounts(lib: LibraryView, plan: QueryPlan, hits: Scored[]): Scored[] {
  const unknown = new Set(hits.filter((h) => h.matchCount === 0).map((h) => h.key));
  if (!unknown.size) return hits;
  const counted = new Map(lib.index.score(plan.slots, { accept: (key) => unknown.has(key) }).map((h) => [h.key, h]));
  return hits.map((h) => {
    const c = counted.get(h.key);
    return c ? { ...h, matchCount: c.matchCount, matchedTerms: c.matchedTerms, held: c.held } : h;
  });
}

/**
 * The best `limit` of a ranking in the order of the score they show, as the first `limit` of the whole ranking so
 * ordered: `rank(n)` gives the best `n` by the unrounded score, which are taken further until the shown score at the
 * limit's edge is past (those tied on it are ordered by date, wherever the unrounded score put them).
 */
function bestInScoreOrder(lib: LibraryView, limit: number | undefined, rank: (n: number | undefined) => Scored[]): Scored[] {
  if (limit === undefined) return inScoreOrder(lib, rank(undefined));
  for (let n = limit + 20; ; n *= 2) {
    const hits = rank(n);
    const ordered = inScoreOrder(lib, hits);
    if (hits.length < n || ordered.length <= limit) return ordered.slice(0, limit);
    // (the unrounded ranking's last scores at least what any left out would: below the edge, no tie of it is left out)
    if (shown(hits[hits.length - 1].relevance) < ordered[limit - 1].relevance) return ordered.slice(0, limit);
  }
}

const shown = (relevance: number): number => Math.round(relevance * 1000) / 1000;

/**
 * Hits in the order of the score they show: relevance rounded as answers show it (three decimals), highest first, then
 * the session started last first (the seed's "then by date", the `date` answers show).
 */
function inScoreOrder(lib: LibraryView, hits: Scored[]): Scored[] {
  // (each date parsed once, not at every comparison: a common word's matches are thousands)
  const dated = hits.map((h) => ({
    hit: { ...h, relevance: shown(h.relevance) },
    date: Date.parse(lib.sessions.get(h.key)?.created ?? '') || 0,
  }));
  return dated.sort((a, b) => b.hit.relevance - a.hit.relevance || b.date - a.date).map((d) => d.hit);
}

/** The best `limit` by words that pass the plan's filters and checks (all without a limit); see ScoreOptions.alsoRank. */
function rankChecked(lib: LibraryView, plan: QueryPlan, limit: number | undefined, alsoRank?: ReadonlySet<string>, counted: Counted = {}): Scored[] {
  const meta = metadataFilter(plan, lib);
  const check = contentCheck(plan, lib.turns);
  const score = (limit: number | undefined): Scored[] =>
    lib.index.score(plan.slots, {
      required: plan.required,
      excluded: plan.query.excluded,
      limit,
      alsoRank,
      idf: lib.idf,
      // (where turns must be read, only those checked are known to match)
      counted: check ? undefined : (n) => (counted.total = n),
      accept:
        meta &&
        ((key) => {
          const s = lib.sessions.get(key);
          return !!s && meta(s);
        }),
    });
  if (!check) return score(limit);
  // ranked once, every candidate; checked in that order until `limit` pass (each check reads the session's turns)
  const out: Scored[] = [];
  for (const hit of score(undefined)) {
    if (!check(lib.sessions.get(hit.key)!)) continue;
    out.push(hit);
    if (out.length === limit) return out;
  }
  counted.total = out.length;
  return out;
}

/**
 * The workspace view of a plan, a workspace at a time (workspaces.ts `streamWorkspaces`): every session holding the
 * query's words, ranked by words whatever the mode (the view marks words), best first; and how many workspaces hold
 * sessions that pass the filters.
 */
export function scanWorkspaces(
  lib: LibraryView,
  plan: QueryPlan,
  onAnswer: (answer: WorkspaceAnswer) => void,
  signal?: AbortSignal,
): Promise<WorkspaceSummary> {
  const all = rankSessions(lib, { ...plan, options: { ...plan.options, limit: undefined, mode: 'lexical' } });
  const ranked = all.flatMap((hit) => lib.sessions.get(hit.key) ?? []);
  const meta = metadataFilter(plan, lib);
  const searched = countWorkspaces(lib, meta ? [...lib.sessions.values()].filter(meta) : lib.sessions.values());
  return streamWorkspaces(lib, ranked, { matcher: plan.matcher, needles: scanNeedles(matcherNeedles(plan.shown)) }, searched, onAnswer, signal);
}

/** One search result: the session's fields, its snippets around the matches and what they marked. */
function resultOf(lib: LibraryView, plan: QueryPlan, hit: Scored, s: Session, seek: SnippetTurnOptions): SearchResult {
  const query = plan.shown;
  const layout = lib.turns.raw(s);
  let snippets;
  try {
    snippets = layout && findSnippetsRaw(layout, s.id, query, seek);
  } finally {
    layout?.close();
  }
  snippets ??= sessionSnippets(lib.turns.all(s), query, seek);
  // found by meaning, without the query's words: the session's first prompt says what it is about
  if (!snippets.length && hit.matchCount === 0) {
    const prompt = firstPrompt(s);
    if (prompt) snippets = [{ text: prompt.slice(0, 200), turnId: `${s.id}#0`, highlights: [] }];
  }
  const result: SearchResult = {
    ...sessionFields(s),
    relevanceScore: shown(hit.relevance),
    matchedSnippets: snippets.map((x) => x.text),
    snippetTurnIds: snippets.map((x) => x.turnId),
    snippetHighlights: snippets.map((x) => x.highlights),
    topicHighlights: plan.matcher ? highlightRanges(s.topic, plan.matcher) : [],
    matchCount: hit.matchCount,
  };
  const held = heldTerms(plan.slots, hit.held);
  if (held.length) result.matchedTerms = held;
  if (hit.matchCount === 0) result.foundBy = 'meaning';
  if (s.project) result.project = s.project;
  if (s.branch) result.branch = s.branch;
  if (s.sourceDeleted) result.sourceDeleted = true;
  if (s.parentId) result.parentId = s.parentId;
  const resume = resumeCommand(s);
  if (resume) result.resumeCommand = resume;
  const tags = sessionTags(lib, s);
  if (tags.length) result.tags = tags;
  return result;
}

export function searchSessions(lib: LibraryView, plan: QueryPlan, raw: string): SearchResponse {
  const { options } = plan;
  const how = { role: options.role, kind: options.kind, weight: (t: string) => lib.index.idf(t) };
  // the query's terms, one per slot: those a hit's bits lack are not looked for in its turns (up to 32, as the bits)
  const slotTerms = uniqueSlots(plan.slots).map((slot) => slot.alts[0].term);
  const absentFrom = (hit: Scored): ReadonlySet<string> | undefined =>
    slotTerms.length > 32 || (hit.matchCount > 0 && hit.held === undefined) ? undefined : new Set(slotTerms.filter((_, k) => !((hit.held ?? 0) & (1 << k))));
  const counted: Counted = {};
  const hits = rankSessions(lib, plan, counted).flatMap((hit) => {
    const session = lib.sessions.get(hit.key);
    return session ? [{ hit, s: session }] : [];
  });
  // built best first while they fit in maxChars (a snippet reads the session's text: those past it are only counted)
  const results: SearchResult[] = [];
  let chars = 0;
  for (const { hit, s } of hits) {
    const result = resultOf(lib, plan, hit, s, { ...how, absent: absentFrom(hit) });
    if (options.maxChars !== undefined && (chars += JSON.stringify(result).length + 1) > options.maxChars) break;
    results.push(result);
  }
  const response: SearchResponse = {
    success: true,
    results,
    count: results.length,
    query: raw,
    mode: effectiveMode(options.mode, plan.query, lib.semantic, lib.meaning),
  };
  if (plan.alsoMatched.length) response.alsoMatched = plan.alsoMatched;
  // asked to rank by meaning and not doing it: said plainly, not in silence
  const why = options.mode === 'semantic' ? whyLexical(options.mode, plan.query, lib.semantic, lib.meaning) : undefined;
  if (why === 'not-ready')
    response.note = `Ranking by meaning is not ready yet: the model is ${lib.semantic.state.status === 'building' ? 'being learned' : 'learned in the background once enough sessions are indexed'}; this answer ranks by words.`;
  if (why === 'exact') response.note = 'The query asks for exact text (a phrase, an exclusion, a flag, a path or code): it ranks by words.';
  if (!plan.query.terms.length && !plan.query.phrases.length) {
    const { excluded, excludedPhrases } = plan.query;
    response.note =
      excluded.length || excludedPhrases.length
        ? `"${raw.trim()}" only says what to leave out: add a word that says what to look for.`
        : `"${raw.trim()}" is only common words, which are not indexed: add a word that says what to look for.`;
  }
  // how many match in all: all the hits where no limit cut them, else where the ranking could count them
  const limited = options.limit !== undefined && hits.length >= options.limit;
  const matched = counted.total ?? (limited ? undefined : hits.length);
  if (matched !== undefined && matched > results.length) response.matched = matched;
  // cut to what one answer holds (not only by its limit): said in the note
  if (results.length < hits.length)
    response.note = addNote(response.note, matched === undefined ? searchCutAtNote(hits.length, results.length) : searchCutNote(matched, results.length));
  return response;
}
