/** How a query term is looked for in text, and which term a match stands for (snippets and highlights). */
import { escapeRegExp } from '../regexp.js';

/**
 * A term as text holds it: a word of letters long enough to be an identifier whole (`websocket`) is also found written
 * with `_` or `-` inside (`web_socket`, `web-socket`), as the index holds those whole too.
 */
export function termSource(term: string): string {
  return IDENTIFIER_WHOLE.test(term) ? [...term].join('[-_]?') : escapeRegExp(term);
}
const IDENTIFIER_WHOLE = /^[a-z]{6,40}$/;

/** The term of the query a match stands for: its text lower-cased, or without the `_` and `-` an identifier was written with. */
export function matchedTerm(text: string, terms: ReadonlySet<string>): string {
  const lower = text.toLowerCase();
  if (terms.has(lower)) return lower;
  const whole = lower.replace(/(?<=[\p{L}\p{N}])[-_](?=[\p{L}\p{N}])/gu, '');
  return terms.has(whole) ? whole : lower;
}
