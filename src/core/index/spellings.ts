/**
 * The terms a near spelling of a word may be (expand.ts `nearSpellings`): words of letters only, held by two documents
 * or more, grouped by length. A history whose tool output keeps adding ids, hashes and numbers holds millions of terms
 * (6.8 million at 10,000 sessions of the growing-vocabulary corpus), nearly all of them in one session or with digits:
 * decoding them all for each misspelt query took 0.2-1 s, and keeping them all as strings 350 MB. These are made once
 * after each change of the index, when a query first needs them (one pass over the terms' bytes), and kept: a small
 * share of the terms.
 */
import type { TermTable } from './term-table.js';

interface Made {
  changes: number;
  /** By length (UTF-16 units): the terms and their ids. */
  byLength: { terms: string[]; ids: number[] }[];
}

/** Whether `text[start..end)` is a word of letters only: a to z, or any character beyond ASCII (terms are lower-cased). */
function lettersOnly(text: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = text[i];
    if (b < 0x80 && (b < 0x61 || b > 0x7a)) return false;
  }
  return end > start;
}

export class SpellingTerms {
  private made: Made | undefined;

  /**
   * Visits the terms of `minLength` to `maxLength` characters that may be near spellings, with their ids: those of
   * letters only that two documents or more held when the index last changed (`df` gives each one's count now).
   */
  visit(dict: TermTable, df: Uint32Array, changes: number, minLength: number, maxLength: number, visit: (term: string, id: number) => void): void {
    const made = this.made?.changes === changes ? this.made : (this.made = this.make(dict, df, changes));
    for (let length = Math.max(1, minLength); length <= maxLength && length < made.byLength.length; length++) {
      const group = made.byLength[length];
      if (group) for (let i = 0; i < group.terms.length; i++) visit(group.terms[i], group.ids[i]);
    }
  }

  private make(dict: TermTable, df: Uint32Array, changes: number): Made {
    const byLength: Made['byLength'] = [];
    dict.forEach(
      (term, id) => {
        const group = (byLength[term.length] ??= { terms: [], ids: [] });
        group.terms.push(term);
        group.ids.push(id);
      },
      (id, text, start, end) => df[id] >= 2 && lettersOnly(text, start, end),
    );
    return { changes, byLength };
  }
}
