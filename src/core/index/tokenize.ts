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

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function isWordChar(code: number, text: string, i: number): boolean {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  return LETTER_OR_DIGIT.test(text[i]);
}

export function isStopWord(term: string): boolean {
  return STOP_WORDS.has(term);
}

/** Calls `onToken` for every indexable token of `text`, in order. */
export function forEachToken(text: string, onToken: (token: string) => void, keepStopWords = false): void {
  let start = -1;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const word = i < n && isWordChar(text.charCodeAt(i), text, i);
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start <= MAX_TOKEN_LENGTH) {
        const token = text.slice(start, i).toLowerCase();
        if (keepStopWords || !STOP_WORDS.has(token)) onToken(token);
      }
      start = -1;
    }
  }
}

export function tokenize(text: string, keepStopWords = false): string[] {
  const tokens: string[] = [];
  forEachToken(text, (t) => tokens.push(t), keepStopWords);
  return tokens;
}
