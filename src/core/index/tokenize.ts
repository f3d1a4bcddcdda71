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

export const WORD_PATTERN = /[\p{L}\p{N}]+/gu;

export function isStopWord(term: string): boolean {
  return STOP_WORDS.has(term);
}

/** Calls `onToken` for every indexable token of `text`, in order. */
export function forEachToken(text: string, onToken: (token: string) => void, keepStopWords = false): void {
  const lower = text.toLowerCase();
  const word = new RegExp(WORD_PATTERN);
  for (let m = word.exec(lower); m; m = word.exec(lower)) {
    const token = m[0];
    if (token.length <= MAX_TOKEN_LENGTH && (keepStopWords || !STOP_WORDS.has(token))) onToken(token);
  }
}

export function tokenize(text: string, keepStopWords = false): string[] {
  const tokens: string[] = [];
  forEachToken(text, (t) => tokens.push(t), keepStopWords);
  return tokens;
}
