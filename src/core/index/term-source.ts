/** How a query term is looked for in text, and which term a match stands for (snippets and highlights). */
import { escapeRegExp } from '../regexp.js';

/**
 * A term as text holds it: an identifier typed with its parts (`web_socket`, `web-socket`: `parts` given) is also found
 * written with `_` or `-` between them or none (`websocket`, `WebSocket`), as the index holds those whole too. (Not
 * every long word: a separator allowed between every letter made the snippet scan several times slower.)
 */
export function termSource(term: string, parts?: readonly string[]): string {
  return parts && parts.length > 1 ? parts.map(escapeRegExp).join('[-_]?') : escapeRegExp(term);
}

/** The term of the query a match stands for: its text lower-cased, or without the `_` and `-` an identifier was written with. */
export function matchedTerm(text: string, terms: ReadonlySet<string>): string {
  const lower = text.toLowerCase();
  if (terms.has(lower)) return lower;
  const whole = lower.replace(/(?<=[\p{L}\p{N}])[-_](?=[\p{L}\p{N}])/gu, '');
  return terms.has(whole) ? whole : lower;
}
