/**
 * Words the index and its caches keep hold none of the text they were read from. A word is a slice of a transcript's
 * text, and V8 keeps a slice of 13 characters or more as a view into its whole parent: before, each new term of a
 * history whose vocabulary grows (hashes, ids, numbers in tool output) kept its whole tool output alive, 250 MB of text
 * at 2,000 sessions after the first load.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { SearchIndex } from '../../src/core/index/engine.js';
import { ownCopy } from '../../src/core/index/tokenize.js';
import { stemOf } from '../../src/core/semantic/asked-index.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** The heap still in use after `keep` ran and its garbage was collected, in MB. */
function heldMb(keep: () => void): number {
  collect();
  const before = process.memoryUsage().heapUsed;
  keep();
  collect();
  return (process.memoryUsage().heapUsed - before) / 1048576;
}

/** A megabyte of text with one long word of its own in the middle (a hash, an id). */
const bigText = (i: number): string => `${'lorem ipsum dolor '.repeat(30_000)} quuxhandle${i}f00dcafe ${'sit amet '.repeat(30_000)}`;

test('the terms an index adds keep none of the documents they were read from', () => {
  const index = new SearchIndex();
  const held = heldMb(() => {
    for (let i = 0; i < 80; i++) index.add(`d${i}`, { topic: '', content: [bigText(i)], messages: [`note ${i}`] }, i);
  });
  // 80 documents of a megabyte each were read; what stays is their postings and 80 new terms
  assert.ok(held < 20, `${held.toFixed(1)} MB held after indexing 80 MB of text`);
  assert.deepEqual(
    index.score(['quuxhandle17f00dcafe']).map((s) => s.key),
    ['d17'],
  );
});

test('the stems cached for the asked words keep none of the prompts they were read from', () => {
  const kept: string[] = [];
  const held = heldMb(() => {
    for (let i = 0; i < 80; i++) {
      const text = bigText(i);
      const word = text.slice(text.indexOf('quuxhandle'), text.indexOf('f00dcafe') + 8);
      kept.push(stemOf(word));
    }
  });
  assert.ok(held < 20, `${held.toFixed(1)} MB held for 80 cached stems`);
  assert.equal(kept[5], 'quuxhandle5f00dcaf', 'the stem of the word (its last e taken off)');
});

test('a word copied is the same word, whatever its length and characters', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.nat(20), (word, at) => {
      const text = `${'x'.repeat(at)}${word}${'y'.repeat(at)}`;
      const copy = ownCopy(text.slice(at, at + word.length));
      assert.equal(copy, word);
      assert.equal(copy.length, word.length);
    }),
  );
});
