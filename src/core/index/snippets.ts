/** Snippets: ~150 characters either side of a match, cut at word boundaries, `…` where text was cut. */
import type { Role, Turn } from '../model.js';
import type { ParsedQuery } from './query.js';

export const SNIPPET_CONTEXT = 150;
export const MAX_SNIPPETS = 3;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NOT_WORD_BEFORE = '(?<![\\p{L}\\p{N}])';
const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}])';

/** A case-insensitive pattern matching any query term or phrase as whole words. */
export function matcherFor(query: ParsedQuery): RegExp | undefined {
  const alternatives = [
    ...query.phrases.map((words) => words.map(escapeRegExp).join('[^\\p{L}\\p{N}]+')),
    ...query.terms.map(escapeRegExp),
  ];
  if (!alternatives.length) return undefined;
  return new RegExp(`${NOT_WORD_BEFORE}(?:${alternatives.join('|')})${NOT_WORD_AFTER}`, 'giu');
}

export function phraseMatcher(words: string[]): RegExp {
  return new RegExp(`${NOT_WORD_BEFORE}${words.map(escapeRegExp).join('[^\\p{L}\\p{N}]+')}${NOT_WORD_AFTER}`, 'iu');
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

/** Up to `max` snippets from distinct turns, conversation turns first, optionally only from one role. */
export function findSnippets(turns: Turn[], query: ParsedQuery, options: { role?: Role; max?: number } = {}): Snippet[] {
  const matcher = matcherFor(query);
  if (!matcher) return [];
  const max = options.max ?? MAX_SNIPPETS;
  const ordered = [...turns.filter((t) => t.kind === 'conversation'), ...turns.filter((t) => t.kind !== 'conversation')];
  const snippets: Snippet[] = [];
  for (const turn of ordered) {
    if (snippets.length >= max) break;
    if (options.role && turn.role !== options.role) continue;
    matcher.lastIndex = 0;
    const m = matcher.exec(turn.text);
    if (!m) continue;
    const piece = cut(turn.text, m.index, m[0].length);
    if (snippets.some((s) => s.text === piece.text)) continue;
    snippets.push({ text: piece.text, turnId: turn.id, highlights: highlightRanges(piece.text, matcher) });
  }
  return snippets;
}

export function highlightRanges(text: string, matcher: RegExp): [number, number][] {
  const ranges: [number, number][] = [];
  matcher.lastIndex = 0;
  for (const m of text.matchAll(matcher)) ranges.push([m.index, m.index + m[0].length]);
  return ranges;
}

/** Whether any turn (of `role`, when given) contains a query term or phrase. */
export function turnsMatch(turns: Turn[], query: ParsedQuery, role?: Role): boolean {
  const matcher = matcherFor(query);
  if (!matcher) return false;
  return turns.some((t) => (!role || t.role === role) && (matcher.lastIndex = 0, matcher.test(t.text)));
}
