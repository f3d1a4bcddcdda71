/**
 * One tokenizer for indexing and querying: lower-cased runs of letters and digits. Underscores and punctuation split
 * words, so `max_map_tokens` is found by `map tokens`; for the index, an identifier joined by `_` or `-` is also a word
 * whole (`web_socket` and `web-socket` are found by `websocket`, as `WebSocket` is). Text in scripts written without
 * spaces (Chinese, Japanese) and Korean is cut into overlapping pairs of characters, as Lucene's CJK analyzer does, so
 * any substring of two characters or more is found by the pairs it is made of. Very long runs (base64, hashes) are not
 * words anyone types.
 */

export const MAX_TOKEN_LENGTH = 40;

const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have i if in into is it its of on or so that the their then there these this to was we were will with you'.split(
    ' ',
  ),
);

/** Letters and digits only: a plain word (no punctuation, no identifier joints). */
export const LETTER_OR_DIGIT = /^[\p{L}\p{N}]+$/u;
/** Letters, then digits if any: a part of an identifier (`socket`, `v2`), not a number, date or hex (`2024`, `e5f6`). */
const NAME_PART = /^\p{L}+\p{N}*$/u;

/**
 * A copy of `s` that holds none of the text it was cut from. V8 keeps a slice of 13 characters or more as a view into
 * its whole parent string, so a word cut from a 200 KB tool output and kept in a table (the index's new terms, a cache
 * of stems) keeps the whole output alive: at 2,000 sessions of a history whose vocabulary grows, 250 MB of transcript
 * text was held so after the first load. Shorter slices are copies already.
 */
export function ownCopy(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

export function isStopWord(term: string): boolean {
  return STOP_WORDS.has(term);
}

/** Whether a code point is written without spaces between words (Han, kana) or is Hangul: cut into pairs. */
export function isCjk(c: number): boolean {
  return (
    (c >= 0x3040 && c <= 0x30ff) || // hiragana, katakana
    (c >= 0x3400 && c <= 0x4dbf) || // Han extension A
    (c >= 0x4e00 && c <= 0x9fff) || // Han
    (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
    (c >= 0x1100 && c <= 0x11ff) || // Hangul jamo
    (c >= 0x3130 && c <= 0x318f) || // Hangul compatibility jamo
    (c >= 0x31f0 && c <= 0x31ff) || // katakana phonetic extensions
    (c >= 0xf900 && c <= 0xfaff) || // Han compatibility
    (c >= 0xff66 && c <= 0xff9f) || // half-width katakana
    (c >= 0x3005 && c <= 0x3007) || // 々 〆 〇
    (c >= 0x20000 && c <= 0x3ffff) // Han extensions B and on
  );
}

/** Whether a string holds a character that is cut into pairs. */
export function hasCjk(text: string): boolean {
  for (const ch of text) if (isCjk(ch.codePointAt(0)!)) return true;
  return false;
}

/** The class of each ASCII character: 1 for a letter or digit, 0 otherwise (most text is ASCII: one load, no test). */
const ASCII_CLASS = new Uint8Array(128).map((_, c) => ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) ? 1 : 0));

/** 0: not part of a word; 1: a letter or digit of a spaced script; 2: a character cut into pairs; +4 for a pair of UTF-16 units. */
function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_CLASS[c];
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const pair = text.slice(i, i + 2);
    if (!LETTER_OR_DIGIT.test(pair)) return 4;
    return isCjk(pair.codePointAt(0)!) ? 6 : 5;
  }
  if (isCjk(c)) return 2;
  return LETTER_OR_DIGIT.test(text[i]) ? 1 : 0;
}

/** NAME_PART's test, without the regular expression for an ASCII word (nearly every word, and one test per word). */
function isNamePart(word: string): boolean {
  const n = word.length;
  let i = 0;
  for (; i < n; i++) {
    const c = word.charCodeAt(i);
    if (c >= 128) return NAME_PART.test(word);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90))) break;
  }
  if (i === 0) return false; // (a digit first: a number, not a name)
  for (; i < n; i++) {
    const c = word.charCodeAt(i);
    if (c >= 128) return NAME_PART.test(word);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Calls `onToken` for every run of letters and digits in already lower-cased text (tokens longer than
 * MAX_TOKEN_LENGTH included; callers filter), each run of paired characters as its pairs (a lone one alone), and, with
 * `joined` (the index), an identifier's parts joined after its last part (`parts` > 0) and each paired character alone
 * (`parts` -1): tokens that are not one more word of the text's length. A hand-written scan: indexing spends most of its time
 * here, and this allocates one string per token where a regular expression also allocates a match object.
 */
export function scanWords(lower: string, onToken: (token: string, parts: number) => void, joined = false): void {
  const n = lower.length;
  let start = -1;
  let cjkStart = -1;
  // the identifier being read: where its first part starts, how many parts so far, whether each is a name part
  // (locals of this loop, not of a closure: V8 keeps a closure's variables in memory, this loop's in registers)
  let idStart = 0;
  let partCount = 0;
  let named = true;
  for (let i = 0; i <= n;) {
    const cls = i === n ? 0 : classAt(lower, i);
    const kind = cls & 3;
    if (kind !== 1 && start >= 0) {
      const word = lower.slice(start, i);
      onToken(word, 0);
      if (joined) {
        if (partCount++ === 0) idStart = start;
        if (named && !isNamePart(word)) named = false;
        // a single `_` or `-` between two words joins them into one identifier
        const c = lower.charCodeAt(i);
        if (!(i + 1 < n && (c === 95 || c === 45) && (classAt(lower, i + 1) & 3) === 1)) {
          if (partCount > 1 && named && i - idStart - (partCount - 1) <= MAX_TOKEN_LENGTH) onToken(joinedParts(lower, idStart, i), partCount);
          partCount = 0;
          named = true;
        }
      }
      start = -1;
    }
    if (kind !== 2 && cjkStart >= 0) {
      pairsOf(lower.slice(cjkStart, i), onToken, joined);
      cjkStart = -1;
    }
    if (kind === 1 && start < 0) start = i;
    else if (kind === 2 && cjkStart < 0) cjkStart = i;
    i += cls & 4 ? 2 : 1;
  }
}

/** An identifier's parts without the single `_` or `-` between them (`web_socket` → `websocket`). */
function joinedParts(lower: string, from: number, to: number): string {
  let whole = '';
  let part = from;
  for (let k = from; k <= to; k++) {
    const c = k === to ? 0 : lower.charCodeAt(k);
    if (k === to || c === 95 || c === 45) {
      whole += lower.slice(part, k);
      part = k + 1;
    }
  }
  return whole;
}

/** A run of characters cut into pairs: its pairs (a lone one alone), and with `joined` each character too. */
function pairsOf(run: string, onToken: (token: string, parts: number) => void, joined: boolean): void {
  const chars = [...run];
  if (chars.length === 1) onToken(run, 0);
  for (let k = 0; k + 1 < chars.length; k++) onToken(chars[k] + chars[k + 1], 0);
  // the index also holds each character, so that one typed alone (a word of one character, 型) is found
  if (joined && chars.length > 1) for (const c of chars) onToken(c, -1);
}

/** Calls `onToken` for every indexable token of `text`, in order (with `joined`, identifiers whole too, as indexed). */
export function forEachToken(text: string, onToken: (token: string) => void, keepStopWords = false, joined = false): void {
  scanWords(
    text.toLowerCase(),
    (token) => {
      if (token.length <= MAX_TOKEN_LENGTH && (keepStopWords || !STOP_WORDS.has(token))) onToken(token);
    },
    joined,
  );
}

export function tokenize(text: string, keepStopWords = false): string[] {
  const tokens: string[] = [];
  forEachToken(text, (t) => tokens.push(t), keepStopWords);
  return tokens;
}

/**
 * A query word's terms, by the index's own rule: an identifier joined by `_` or `-` (`web_socket`) is the one term the
 * index holds it whole as, with its parts (`parts`), never its parts apart; `WebSocket` and `websocket` are that term
 * already; other words as `tokenize` cuts them.
 */
export function queryTerms(text: string): { term: string; parts?: string[] }[] {
  const out: { term: string; parts?: string[] }[] = [];
  scanWords(
    text.toLowerCase(),
    (token, parts) => {
      if (parts < 0) return;
      // the parts an identifier joins were the last `parts` words
      if (parts > 0) out.push({ term: token, parts: out.splice(out.length - parts, parts).map((o) => o.term) });
      else out.push({ term: token });
    },
    true,
  );
  return out
    .filter((o) => o.term.length <= MAX_TOKEN_LENGTH && !STOP_WORDS.has(o.term))
    .map((o) => (o.parts ? { term: o.term, parts: o.parts.filter((p) => !STOP_WORDS.has(p)) } : { term: o.term }));
}
