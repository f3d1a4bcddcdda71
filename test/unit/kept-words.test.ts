/**
 * Words the index and its caches keep hold none of the text they were read from. A word is a slice of a transcript's
 * text, and V8 keeps a slice of 13 characters or more as a view into its whole parent: before, each new term of a
 * history whose vocabulary grows (hashes, ids, numbers in tool output) kept its whole tool output alive, 250 MB of text
 * at 2,000 sessions after the first load.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { SearchIndex } from '../../src/core/index/engine.js';
import { ownCopy } from '../../src/core/index/tokenize.js';
import { TermTable } from '../../src/core/index/term-table.js';
import { writeSnapshot } from '../../src/core/store/snapshot.js';
import { tempDir } from '../helpers.js';
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

test('visiting every term of a restored table (near spellings) keeps none of them as strings', () => {
  const terms = Array.from({ length: 400_000 }, (_, i) => `term${i.toString(36)}x`);
  const table = TermTable.fromList(terms);
  let visited = 0;
  const held = heldMb(() => table.forEach(() => visited++));
  assert.equal(visited, terms.length);
  assert.ok(held < 4, `${held.toFixed(1)} MB held after visiting ${terms.length} terms`);
});

test("after a snapshot is written, the index holds its terms as the file's bytes, not as strings, and still finds them", async () => {
  const index = new SearchIndex();
  // a history whose tool output adds new words every time: ids, hashes
  for (let d = 0; d < 200; d++) {
    const words = Array.from({ length: 2000 }, (_, w) => `id${(d * 2000 + w).toString(16).padStart(8, '0')}`);
    index.add(`d${d}`, { topic: '', content: [`the output ${words.join(' ')}`], messages: [] }, d);
  }
  const path = join(tempDir(), 'snapshot.bin');
  const state = index.exportState();
  const changes = index.changeCount;
  const written = await writeSnapshot(path, 'k', state, [], []);
  collect();
  const before = process.memoryUsage().heapUsed;
  assert.ok(index.useSnapshotArrays(changes, written.arrays));
  collect();
  const freed = (before - process.memoryUsage().heapUsed) / 1048576;
  // 400,000 terms as strings in a Map: about 40 MB; as bytes beside the file: about 5 MB (outside the heap)
  assert.ok(freed > 20, `${freed.toFixed(1)} MB of the heap freed by taking the written terms`);
  assert.deepEqual(
    index.score(['id0000abcd']).map((s) => s.key),
    [`d${Math.floor(0xabcd / 2000)}`],
  );
  // and words added after it, a stop word among them, are found beside them
  index.add('later', { topic: 'the quuxrelay', content: ['id0000abcd and more'], messages: [] }, 999);
  assert.deepEqual(
    index.score(['quuxrelay']).map((s) => s.key),
    ['later'],
  );
  assert.equal(index.score(['id0000abcd']).length, 2);
  assert.equal(index.score(['the']).length, 0);
  written.arrays.close();
});
