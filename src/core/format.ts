/**
 * JSON and TOON output. TOON saves tokens on uniform arrays (one header, then rows) but costs them on nested,
 * irregular data, so answers are first given a tabular view (optional fields filled, per-row lists moved to their own
 * table) and `auto` sends TOON only where that view is shorter than the plain JSON.
 */
import { decode, encode } from '@toon-format/toon';
import { indexingLine } from './indexing-line.js';

export type OutputFormat = 'json' | 'toon' | 'auto';

export function toToon(value: unknown): string {
  return encode(value, { delimiter: '\t' });
}

export function fromToon(text: string): unknown {
  return decode(text);
}

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every row gets every key (missing ones null) and lists of strings become one comma-joined string. */
export function uniformRows(rows: Row[]): Row[] {
  const keys: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  return rows.map((row) => {
    const out: Row = {};
    for (const k of keys) {
      const v = row[k];
      out[k] = Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join(',') : (v ?? null);
    }
    return out;
  });
}

/** The tabular view of an answer, for TOON: search snippets move to a `snippets` table keyed by
 * the turn they came from (whose id begins with the session's). */
export function tabularView(value: unknown): unknown {
  if (!isRow(value)) return value;
  const out: Row = { ...value };
  for (const [key, v] of Object.entries(value)) {
    if (!Array.isArray(v) || !v.length || !v.every(isRow)) continue;
    if (v.every((r) => Array.isArray(r.matchedSnippets))) {
      const snippets: Row[] = [];
      const rows = v.map((r) => {
        const { matchedSnippets, snippetTurnIds, ...rest } = r as Row & { matchedSnippets: string[]; snippetTurnIds?: string[] };
        for (const key of NOT_IN_TEXT) delete rest[key];
        // the turn id starts with the session id, so it alone ties a snippet to its result
        matchedSnippets.forEach((text, i) => snippets.push({ turnId: snippetTurnIds?.[i] ?? rest.id ?? null, text }));
        return rest;
      });
      out[key] = uniformRows(rows);
      out.snippets = snippets;
    } else {
      out[key] = uniformRows(v);
    }
  }
  return out;
}

/**
 * Left out of the text for a model: highlight ranges serve screens that mark matches (structured results, the panel),
 * and indexing progress is said in one line instead (`indexingLine`).
 */
const NOT_IN_TEXT = new Set(['snippetHighlights', 'topicHighlights', 'indexing']);

/** The text for `value` in the chosen format; `auto` picks TOON only where it is shorter than compact JSON. */
export function render(value: unknown, format: OutputFormat): { format: 'json' | 'toon'; text: string } {
  const json = JSON.stringify(value, (key, v: unknown) => (NOT_IN_TEXT.has(key) ? undefined : v));
  if (format === 'json') return { format: 'json', text: json };
  const toon = toToon(tabularView(value));
  if (format === 'toon' || toon.length < json.length) return { format: 'toon', text: toon };
  return { format: 'json', text: json };
}

/** The text of an answer for a model: the indexing line when partial, then the answer (TOON where smaller). */
export function answerText(value: unknown, format: OutputFormat = 'auto'): string {
  return indexingLine(value) + render(value, format).text;
}
