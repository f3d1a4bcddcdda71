/** Snippets: ~150 characters either side of a match, cut at word boundaries, `…` where text was cut. */
import type { Role, Turn, TurnKind } from '../model.js';
import type { ParsedQuery } from './query.js';
import { escapeRegExp } from '../regexp.js';
import { isCjk } from './tokenize.js';
import { matchedTerm, termSource } from './term-source.js';
import { chooseSnippetTurns, jsonText, literalWeight, MAX_SNIPPETS, type SnippetTurnOptions, type TurnSource } from './snippet-turns.js';

export const SNIPPET_CONTEXT = 150;

const NOT_WORD_BEFORE = '(?<![\\p{L}\\p{N}])';
const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}])';

const firstCjk = (w: string): boolean => w.length > 0 && isCjk(w.codePointAt(0)!);
const lastCjk = (w: string): boolean => w.length > 0 && isCjk([...w].at(-1)!.codePointAt(0)!);

/** A pattern held to word edges, except where it starts or ends in text written without spaces (any substring counts). */
function bounded(source: string, first: string, last: string, after = NOT_WORD_AFTER): string {
  const e = edged(source, first, last, after);
  return `${e.before}${e.source}${e.after}`;
}

/** Phrase words in order, separated as text separates them (text written without spaces needs no separator). */
function phraseSource(words: string[]): string {
  return words.map((w, i) => (i === 0 ? '' : lastCjk(words[i - 1]) || firstCjk(w) ? '[^\\p{L}\\p{N}]*' : '[^\\p{L}\\p{N}]+') + escapeRegExp(w)).join('');
}

/** Patterns compiled once per query (one query's hits all use the same). */
const compiled = new WeakMap<ParsedQuery, RegExp | undefined>();

/**
 * A case-insensitive pattern matching any literal, phrase or term of the query as whole words (literals first),
 * compiled once per query object; callers reset `lastIndex` before each use.
 */
export function matcherFor(query: ParsedQuery): RegExp | undefined {
  if (compiled.has(query)) return compiled.get(query);
  const matcher = compileMatcher(query);
  compiled.set(query, matcher);
  return matcher;
}

/**
 * One alternation held to word edges once, not once per alternative: neighbours with the same edges share one
 * look-behind and one look-ahead (`(?<!…)(?:a|b|c)(?!…)`, the same matches, the regexp engine backtracking into the group
 * when the look-ahead fails). A look-behind per word made each query's pattern tens of times larger, and V8 ran such
 * patterns up to seventy times slower once they had been tiered up from its interpreter (seconds for a 6-word query
 * over ten sessions).
 */
function compileMatcher(query: ParsedQuery): RegExp | undefined {
  const alternatives = [
    ...query.literals.map((l) => edged(escapeRegExp(l), l, l)),
    ...query.phrases.map((words) => edged(phraseSource(words), words[0], words.at(-1)!)),
    ...query.terms.map((t) => edged(termSource(t, query.parts?.get(t)), t, t)),
  ];
  if (!alternatives.length) return undefined;
  const groups: { before: string; after: string; sources: string[] }[] = [];
  for (const a of alternatives) {
    const last = groups.at(-1);
    if (last && last.before === a.before && last.after === a.after) last.sources.push(a.source);
    else groups.push({ before: a.before, after: a.after, sources: [a.source] });
  }
  return new RegExp(`(?:${groups.map((g) => `${g.before}(?:${g.sources.join('|')})${g.after}`).join('|')})`, 'giu');
}

/**
 * For each alternative of `matcherFor(query)`, a text every match of it holds, as JSON writes it: a literal, a phrase's
 * longest word, a term (an identifier's longest part where its parts may be joined otherwise). Where none of them
 * lies in a turn's JSON (case aside), the matcher finds nothing in its text.
 */
export function matcherNeedles(query: ParsedQuery): string[] {
  const longest = (words: readonly string[]): string => words.reduce((a, b) => (b.length > a.length ? b : a), '');
  return [
    ...query.literals,
    ...query.phrases.map(longest),
    ...query.terms.map((t) => {
      const parts = query.parts?.get(t);
      return parts && parts.length > 1 ? longest(parts) : t;
    }),
  ].map(jsonText);
}

/** A pattern and the word edges it is held to (none where it starts or ends in text written without spaces). */
function edged(source: string, first: string, last: string, after = NOT_WORD_AFTER): { before: string; source: string; after: string } {
  return { before: firstCjk(first) ? '' : NOT_WORD_BEFORE, source, after: lastCjk(last) ? '' : after };
}

export function phraseMatcher(words: string[]): RegExp {
  return new RegExp(bounded(phraseSource(words), words[0], words.at(-1)!), 'iu');
}

/**
 * A word as typed (a flag, a path, an identifier), case ignored, not inside a longer word nor at the start of a longer
 * flag (`--read` is not found in `--read-only`; a sentence's punctuation may follow it), `auth` is in `auth-flow`.
 */
export function literalMatcher(word: string): RegExp {
  const after = word.startsWith('-') ? '(?![\\p{L}\\p{N}]|-[\\p{L}\\p{N}])' : NOT_WORD_AFTER;
  return new RegExp(bounded(escapeRegExp(word), word, word, after), 'iu');
}

export interface Snippet {
  text: string;
  turnId: string;
  /** Ranges of `text` that matched, for highlighting. */
  highlights: [number, number][];
}

function cut(text: string, index: number, length: number): { text: string; offset: number } {
  let start = Math.max(0, index - SNIPPET_CONTEXT);
  let end = Math.min(text.length, index + length + SNIPPET_CONTEXT);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < index) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > index + length) end = space;
  }
  const body = text.slice(start, end).replace(/\s+/g, ' ');
  const prefix = start > 0 ? '…' : '';
  return { text: `${prefix}${body.trim()}${end < text.length ? '…' : ''}`, offset: start };
}

const MATCHES_EXAMINED_PER_TURN = 200;

/**
 * Up to `max` snippets from distinct turns of `turns` (all are looked at): the turns holding the most (and rarest, by
 * `weight`) query terms first, each cut around its rarest term; conversation turns win ties. Optionally only turns of
 * one role. For a whole session, `sessionSnippets` first chooses the few turns worth cutting from.
 */
export function findSnippets(
  turns: Turn[],
  query: ParsedQuery,
  options: { role?: Role; kind?: TurnKind; max?: number; weight?: (term: string) => number } = {},
): Snippet[] {
  const matcher = matcherFor(query);
  if (!matcher) return [];
  const max = options.max ?? MAX_SNIPPETS;
  const literals = new Set(query.literals.map((l) => l.toLowerCase()));
  const terms = new Set(query.terms);
  const weight = (term: string): number => (literals.has(term) ? literalWeight(term, options.weight) : (options.weight ?? (() => 1))(term));
  const candidates: { turn: Turn; score: number; index: number; length: number; order: number }[] = [];
  const scan = (turn: Turn, order: number): void => {
    if ((options.role && turn.role !== options.role) || (options.kind && turn.kind !== options.kind)) return;
    matcher.lastIndex = 0;
    const seen = new Map<string, { index: number; length: number; weight: number; rarity: number }>();
    let examined = 0;
    for (let m = matcher.exec(turn.text); m && examined < MATCHES_EXAMINED_PER_TURN; m = matcher.exec(turn.text), examined++) {
      const lower = m[0].toLowerCase();
      const term = literals.has(lower) ? lower : matchedTerm(m[0], terms);
      if (seen.has(term)) continue;
      const w = weight(term);
      // where to cut: the rarest word, a literal counting as 1.5 times its rarest part
      seen.set(term, { index: m.index, length: m[0].length, weight: w, rarity: literals.has(term) ? literalWeight(term, options.weight, true) : w });
    }
    if (!seen.size) return;
    let score = turn.kind === 'conversation' ? 0.01 : 0;
    let anchor = { index: 0, length: 0, rarity: -1 };
    for (const hit of seen.values()) {
      score += hit.weight || 1;
      if (hit.rarity > anchor.rarity) anchor = hit;
    }
    candidates.push({ turn, score, index: anchor.index, length: anchor.length, order });
  };
  turns.forEach((turn, order) => scan(turn, order));
  candidates.sort((a, b) => b.score - a.score || a.order - b.order);
  const snippets: Snippet[] = [];
  for (const c of candidates) {
    if (snippets.length >= max) break;
    const piece = cut(c.turn.text, c.index, c.length);
    if (snippets.some((s) => s.text === piece.text)) continue;
    snippets.push({ text: piece.text, turnId: c.turn.id, highlights: highlightRanges(piece.text, matcher) });
  }
  return snippets;
}

/** The turns of a session held in memory, as the snippet chooser reads them. */
export function memoryTurns(turns: Turn[]): TurnSource {
  return {
    count: turns.length,
    kind: (i) => turns[i].kind,
    role: (i) => turns[i].role,
    textLength: (i) => turns[i].text.length,
    text: (i) => turns[i].text,
    escaped: false,
  };
}

type SnippetOptions = SnippetTurnOptions;

/** The snippets of a whole session whose turns are in memory: the chosen turns, then the cut. */
export function sessionSnippets(turns: Turn[], query: ParsedQuery, options: SnippetOptions = {}): Snippet[] {
  const chosen = chooseSnippetTurns(memoryTurns(turns), query, options) ?? [];
  return findSnippets(
    chosen.map((i) => turns[i]),
    query,
    { ...options, max: MAX_SNIPPETS },
  );
}

export function highlightRanges(text: string, matcher: RegExp): [number, number][] {
  const ranges: [number, number][] = [];
  matcher.lastIndex = 0;
  for (const m of text.matchAll(matcher)) ranges.push([m.index, m.index + m[0].length]);
  return ranges;
}

/** Whether any turn (of `role` and `kind`, when given) contains a query term or phrase. */
export function turnsMatch(turns: Turn[], query: ParsedQuery, role?: Role, kind?: TurnKind): boolean {
  const matcher = matcherFor(query);
  if (!matcher) return false;
  return turns.some((t) => {
    if ((role && t.role !== role) || (kind && t.kind !== kind)) return false;
    matcher.lastIndex = 0;
    return matcher.test(t.text);
  });
}
