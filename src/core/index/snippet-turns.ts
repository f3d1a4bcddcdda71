/**
 * Which turns of a session snippets are cut from. The conversation is looked at in order, to its end or, past
 * CONVERSATION_CHARS, until what was found is enough (below); then tool
 * output, file reads and thinking in order, until MAX_SNIPPETS turns hold every query word, or every word was seen and
 * MAX_SNIPPETS turns hold some, or OTHER_CHARS_SCANNED characters were looked at (further only when nothing matched
 * yet). The best few are kept. The same choice is made over turns in memory and over raw JSON in an archive line (store/session-layout.ts),
 * so both give the same snippets; a session of many MB is not scanned to its end for a snippet.
 */
import type { Role, TurnKind } from '../model.js';
import type { ParsedQuery } from './query.js';
import { isCjk, tokenize } from './tokenize.js';
import { matchedTerm, termSource } from './term-source.js';
import { escapeRegExp } from '../regexp.js';

/** At most this many snippets per result. */
export const MAX_SNIPPETS = 3;
/** Characters of tool output, file reads and thinking looked at, after the whole conversation. */
export const OTHER_CHARS_SCANNED = 1024 * 1024;
/**
 * Characters of conversation looked at, past which a session stops being read once its snippets can show every word
 * it holds: a conversation of many MB is not read to its end for a snippet. On bench:real's 1,000 sessions this is a
 * quarter of a hybrid search's time (whose results are the longer sessions); asking also for one turn holding every
 * word kept a third of that, and gave the 7,200 results' snippets no more of the query's words together (the first
 * snippet differed for 230, the most words in one snippet was higher for 50 and lower for 100).
 */
const CONVERSATION_CHARS = 256 * 1024;
/** Matches looked at per turn: a turn repeating a word thousands of times is not walked to its end. */
const MATCHES_EXAMINED_PER_TURN = 200;

/** A session's turns as the chooser reads them. */
export interface TurnSource {
  count: number;
  kind(i: number): TurnKind;
  role(i: number): Role;
  textLength(i: number): number;
  /** The text of turn `i` (`escaped`: as a JSON string body, escapes kept), or undefined when it cannot be read. */
  text(i: number): string | undefined;
  /**
   * The same text as its UTF-8 bytes, one to a character (latin1): cheaper to decode than `text`, and what a search for
   * ASCII words alone reads (a character of several bytes is as many characters of 0x80 and above). Optional.
   */
  utf8Bytes?(i: number): string | undefined;
  escaped: boolean;
}

/** The distinct words snippets look for: every term, phrase words included, lower-cased. */
export function snippetWords(query: ParsedQuery): string[] {
  return [...new Set([...query.terms, ...query.phrases.flat()].map((w) => w.toLowerCase()))];
}

/** `s` as JSON writes it inside a string (escapes kept): how an archive line's bytes hold it. */
export const jsonText = (s: string): string => JSON.stringify(s).slice(1, -1);

/**
 * What a literal (a flag, a path, an identifier typed as one) weighs in choosing snippets: its words and once more the
 * rarest of them, so that a turn holding `--read` comes before one holding only the word "read", and `--edit-format`
 * before "edit" and "format" apart. `anchor`: what it weighs in choosing where to cut, 1.5 times its rarest word: a
 * rarer word typed beside it (`MockRepoMap max_map_tokens`) is still where the snippet is cut.
 */
export function literalWeight(literal: string, weight: (term: string) => number = () => 1, anchor = false): number {
  const weights = tokenize(literal).map((w) => weight(w) || 1);
  const rarest = Math.max(1, ...weights);
  return anchor ? 1.5 * rarest : weights.reduce((a, b) => a + b, 0) + rarest;
}

const isWordChar = (c: string): boolean => /[\p{L}\p{N}]/u.test(c);
const HEX = /^[0-9a-fA-F]{4}$/;

/**
 * The character whose UTF-8 byte is at `i` of text holding bytes one to a character, as a UTF-16 string holds it at
 * that place: the character, or for one outside the basic plane a surrogate (never a letter), as `text(i)` would give.
 */
function characterAt(bytes: string, i: number): string {
  let lead = i;
  while (lead > 0 && i - lead < 3 && (bytes.charCodeAt(lead) & 0xc0) === 0x80) lead--;
  const c = bytes.charCodeAt(lead);
  const n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  const decoded = Buffer.from(bytes.slice(lead, lead + n), 'latin1').toString('utf8');
  return decoded.length > 1 ? '\ud800' : decoded;
}

/**
 * Whether `text[i]` is not part of a word; in JSON text, the letter ending an escape (`\n`, `\u0001`) is not.
 * `oneByte`: the text holds UTF-8 bytes one to a character (TurnSource.utf8Bytes).
 */
function separates(text: string, i: number, escaped: boolean, before: boolean, oneByte = false): boolean {
  if (i < 0 || i >= text.length) return true;
  const code = text.charCodeAt(i);
  if (code >= 0x80) return !isWordChar(oneByte ? characterAt(text, i) : text[i]);
  const c = text[i];
  const slashesBefore = (at: number): number => {
    let n = 0;
    for (let k = at - 1; k >= 0 && text[k] === '\\'; k--) n++;
    return n;
  };
  // a backslash that escapes what follows: the match would start with an escape's letter (`\n`), not a word
  if (escaped && before && c === '\\') return slashesBefore(i + 1) % 2 === 0;
  if (!((code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a))) return true;
  if (!escaped || !before) return false;
  if ('ntrbf'.includes(c) && slashesBefore(i) % 2 === 1) return true;
  // \uXXXX: JSON writes control characters and lone surrogates so, never letters
  return i >= 5 && text[i - 4] === 'u' && HEX.test(text.slice(i - 3, i + 1)) && slashesBefore(i - 4) % 2 === 1;
}

/** What the chooser looks for, compiled once per query and text form (plain, or as JSON escapes it). */
type Compiled = { literals: string[]; words: string[]; pattern: RegExp; ascii: boolean };
const compiled = new WeakMap<ParsedQuery, Map<boolean, Compiled>>();

function wordsOf(query: ParsedQuery, escaped: boolean): Compiled {
  let forms = compiled.get(query);
  if (!forms) compiled.set(query, (forms = new Map()));
  const known = forms.get(escaped);
  if (known) return known;
  // literals first (a match there is not also counted as its words), as the text holds them (JSON-escaped in raw text)
  const literals = query.literals.map((l) => l.toLowerCase());
  const words = [
    ...literals.map((l) => (escaped ? jsonText(l) : l)),
    ...snippetWords(query).filter((w) => !literals.includes(w)), // `MockRepoMap` is a literal and a term: once
  ];
  const ascii = words.every((w) => /^[\x20-\x7e]+$/.test(w));
  const pattern = new RegExp(
    words.map((w, k) => (k < literals.length ? escapeRegExp(w) : termSource(w, query.parts?.get(w)))).join('|') || '(?!)',
    ascii ? 'gi' : 'giu',
  );
  const made = { literals, words, pattern, ascii };
  forms.set(escaped, made);
  return made;
}

export interface SnippetTurnOptions {
  role?: Role;
  kind?: TurnKind;
  weight?: (term: string) => number;
  /** Query terms as typed that the index says the session does not hold (the slots its hit lacks). */
  absent?: ReadonlySet<string>;
}

/**
 * The indices (in order) of the turns snippets are cut from: up to 2 × MAX_SNIPPETS turns, best first by the summed
 * weight of the words they hold (a conversation turn wins a tie). Undefined when a turn that had to be read could not be.
 */
export function chooseSnippetTurns(source: TurnSource, query: ParsedQuery, options: SnippetTurnOptions = {}): number[] | undefined {
  const { literals, words, pattern, ascii } = wordsOf(query, source.escaped);
  if (!words.length) return [];
  // ASCII words are found alike in a text's UTF-8 bytes read one to a character (no other character folds to ASCII
  // ignoring case), which are cheaper to decode; a word's edge is then the character whose bytes stand there
  const oneByte = ascii && source.utf8Bytes !== undefined;
  const read = (i: number): string | undefined => (oneByte ? source.utf8Bytes!(i) : source.text(i));
  const weights = words.map((w, k) => (k < literals.length ? literalWeight(literals[k], options.weight) : options.weight?.(w) || 1));
  const index = new Map(words.map((w, k) => [w, k]));
  const known = new Set(words);
  // text written without spaces has no word edges: a match there stands wherever it starts or ends
  // (in bytes read one to a character, the code point a UTF-16 text holds at that place: see characterAt)
  const cjkAt = (text: string, i: number): boolean =>
    i >= 0 && i < text.length && text.charCodeAt(i) >= 0x80 && isCjk((oneByte ? characterAt(text, i) : text).codePointAt(oneByte ? 0 : i)!);
  const edged = (text: string, at: number, length: number): boolean =>
    (cjkAt(text, at) || separates(text, at - 1, source.escaped, true, oneByte)) &&
    (cjkAt(text, at + length - 1) || cjkAt(text, at + length - 2) || separates(text, at + length, source.escaped, false, oneByte));
  // what "every word" means for stopping: the literals and the words typed, not their other forms (a form no turn holds
  // would otherwise have every result's tool output scanned to its first MB for nothing)
  const typed = query.typed ? new Set(query.typed) : undefined;
  // ...nor the words the index says the session does not hold (a decoy's missing codename, every word of a session
  // found by meaning): they would have its tool output scanned for nothing
  const { absent } = options;
  const needed = words.map((w, k) => k < literals.length || ((!typed || typed.has(w)) && !absent?.has(w)));
  const neededCount = needed.filter(Boolean).length;
  const all = weights.reduce((a, b, k) => a + (needed[k] ? b : 0), 0);
  const scored: { index: number; score: number }[] = [];
  const seen = new Set<number>();
  let complete = 0;
  let unreadable = false;
  const found = new Set<number>(); // the words of the turn being scanned (one set for every turn)
  const scan = (i: number): void => {
    if ((options.role && source.role(i) !== options.role) || (options.kind && source.kind(i) !== options.kind)) return;
    const text = read(i);
    if (text === undefined) {
      unreadable = true;
      return;
    }
    found.clear();
    pattern.lastIndex = 0;
    let examined = 0;
    for (let m = pattern.exec(text); m && examined < MATCHES_EXAMINED_PER_TURN && found.size < words.length; m = pattern.exec(text), examined++) {
      if (edged(text, m.index, m[0].length)) {
        const k = index.get(matchedTerm(m[0], known));
        if (k !== undefined) found.add(k);
      }
    }
    if (!found.size) return;
    let score = source.kind(i) === 'conversation' ? 0.01 : 0;
    let held = 0;
    for (const k of found) {
      score += weights[k];
      if (needed[k]) {
        seen.add(k);
        held += weights[k];
      }
    }
    if (held >= all) complete++;
    scored.push({ index: i, score });
  };
  const enough = (): boolean => complete >= MAX_SNIPPETS || (seen.size === neededCount && scored.length >= MAX_SNIPPETS);
  let conversation = 0;
  for (let i = 0; i < source.count && !unreadable; i++) {
    if (source.kind(i) !== 'conversation') continue;
    if (conversation >= CONVERSATION_CHARS && enough()) break;
    scan(i);
    conversation += source.textLength(i);
  }
  let budget = OTHER_CHARS_SCANNED;
  let i = 0;
  // (a session the index says holds none of the words has no match to find past its conversation)
  const nothingHeld = absent !== undefined && neededCount === 0;
  for (; i < source.count && budget > 0 && !enough() && !unreadable && !nothingHeld; i++) {
    if (source.kind(i) === 'conversation') continue;
    scan(i);
    budget -= source.textLength(i);
  }
  // Nothing in the conversation or the first MB of the rest: the match lies further on, so look there too.
  for (; i < source.count && !scored.length && !unreadable && !nothingHeld; i++) if (source.kind(i) !== 'conversation') scan(i);
  if (unreadable) return undefined;
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  // A few more than shown, so snippets that come out the same text still leave enough distinct ones.
  return scored
    .slice(0, MAX_SNIPPETS * 2)
    .map((s) => s.index)
    .sort((a, b) => a - b);
}
