/**
 * One tokenizer for indexing and querying: lower-cased runs of letters and digits. Underscores and punctuation split
 * words, so `max_map_tokens` is found by `map tokens`. Very long runs (base64, hashes) are not words anyone types.
 */

export const MAX_TOKEN_LENGTH = 40;

const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have i if in into is it its of on or so that the their then there these this to was we were will with you'.split(
    ' ',
  ),
);

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]+$/u;

export function isStopWord(term: string): boolean {
  return STOP_WORDS.has(term);
}

/**
 * Calls `onToken` for every run of letters and digits in already lower-cased text (tokens longer than
 * MAX_TOKEN_LENGTH included; callers filter). A hand-written scan: indexing spends most of its time here, and this
 * allocates one string per token where a regular expression also allocates a match object.
 */
export function scanWords(lower: string, onToken: (token: string) => void): void {
  const n = lower.length;
  let start = -1;
  for (let i = 0; i <= n; i++) {
    let word = false;
    if (i < n) {
      const c = lower.charCodeAt(i);
      if (c < 128) word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        word = LETTER_OR_DIGIT.test(lower.slice(i, i + 2));
        if (word) {
          if (start < 0) start = i;
          i++;
          continue;
        }
      } else word = LETTER_OR_DIGIT.test(lower[i]);
    }
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      onToken(lower.slice(start, i));
      start = -1;
    }
  }
}

/** Calls `onToken` for every indexable token of `text`, in order. */
export function forEachToken(text: string, onToken: (token: string) => void, keepStopWords = false): void {
  scanWords(text.toLowerCase(), (token) => {
    if (token.length <= MAX_TOKEN_LENGTH && (keepStopWords || !STOP_WORDS.has(token))) onToken(token);
  });
}

export function tokenize(text: string, keepStopWords = false): string[] {
  const tokens: string[] = [];
  forEachToken(text, (t) => tokens.push(t), keepStopWords);
  return tokens;
}
