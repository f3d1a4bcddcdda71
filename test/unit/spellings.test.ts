/**
 * The terms near spellings are looked for among (index/spellings.ts): for any index, restored or in memory, exactly
 * the letters-only terms two documents or more hold, of the lengths asked, with their counts now; made again after the
 * index changes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SearchIndex } from '../../src/core/index/engine.js';
import { TermTable } from '../../src/core/index/term-table.js';

const word = fc.oneof(
  fc.stringMatching(/^[a-z]{1,9}$/),
  fc.stringMatching(/^[a-z0-9]{1,8}$/),
  fc.constantFrom('café', 'naïve', 'straße', 'données', 'v2', '2024'),
);

/** What a visit of every term, filtered here, gives: the reference. */
function everyTerm(index: SearchIndex, minLength: number, maxLength: number): [string, number][] {
  const out: [string, number][] = [];
  index.forEachTerm((term, df) => {
    if (df >= 2 && /^[\p{L}]+$/u.test(term) && !/[A-Z0-9]/.test(term) && term.length >= minLength && term.length <= maxLength) out.push([term, df]);
  });
  return out.sort();
}

function spellingTerms(index: SearchIndex, minLength: number, maxLength: number): [string, number][] {
  const out: [string, number][] = [];
  index.forEachTerm((term, df) => out.push([term, df]), { minDf: 2, minLength, maxLength, lettersOnly: true });
  return out.sort();
}

test('the terms a near spelling may be are the letters-only terms two documents hold, restored or not, and follow changes', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(word, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 12 }),
      fc.array(word, { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 0, max: 5 }),
      (docs, later, minLength, span) => {
        const maxLength = minLength + span;
        const live = new SearchIndex();
        docs.forEach((words, i) => live.add(`d${i}`, { topic: '', content: [words.join(' ')], messages: [] }, i));
        const state = live.exportState();
        const restored = SearchIndex.fromState({ ...state, docTerms: state.docTerms as Uint32Array, terms: TermTable.fromText(state.terms) });
        for (const index of [live, restored]) {
          assert.deepEqual(spellingTerms(index, minLength, maxLength), everyTerm(index, minLength, maxLength));
          // a change (a word now in two documents, new words) is seen at the next visit
          index.add('later1', { topic: '', content: [later.join(' ')], messages: [] }, 99);
          index.add('later2', { topic: '', content: [later.join(' ')], messages: [] }, 100);
          assert.deepEqual(spellingTerms(index, minLength, maxLength), everyTerm(index, minLength, maxLength));
          index.remove('later1');
          assert.deepEqual(spellingTerms(index, minLength, maxLength), everyTerm(index, minLength, maxLength));
        }
      },
    ),
    { numRuns: 300 },
  );
});
