/**
 * The term dictionary a restored index looks terms up in without making a string of each (index/term-table.ts): for any
 * list of distinct terms, whatever their characters, it answers as a Map of them does, and after terms are added too.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { TermTable } from '../../src/core/index/term-table.js';

/** Terms of what indexes hold: ASCII words, accented and CJK words, emoji (two UTF-16 units), prefixes of one another. */
const term = fc.oneof(
  fc.stringMatching(/^[a-z0-9_]{1,10}$/),
  fc.constantFrom('café', 'cafe', 'caf', 'naïve', '日本語', '日本', 'データベース', 'ü', 'u', '😀', '😀x', 'x😀', 'straße', 'é'),
  fc.array(fc.constantFrom('a', 'é', '日', '😀', 'b'), { minLength: 1, maxLength: 5 }).map((c) => c.join('')),
);

test('a restored table finds every term at its id and no other word, as a Map of the terms does', () => {
  fc.assert(
    fc.property(fc.uniqueArray(term, { maxLength: 60 }), fc.array(term, { maxLength: 20 }), (terms, probes) => {
      const table = TermTable.fromList(terms);
      const reference = new Map(terms.map((t, id) => [t, id]));
      assert.equal(table.count, terms.length);
      for (const t of [...terms, ...probes]) assert.equal(table.get(t), reference.get(t), t);
      const visited: [string, number][] = [];
      table.forEach((t, id) => visited.push([t, id]));
      assert.deepEqual(visited, [...reference]);
    }),
    { numRuns: 2000 },
  );
});

test('terms added after the restore are found beside the restored ones; stop words are found but never visited', () => {
  fc.assert(
    fc.property(fc.uniqueArray(term, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 40 }), (all, cut) => {
      const restored = all.slice(0, Math.min(cut, all.length));
      const table = TermTable.fromList(restored);
      const added = all.slice(restored.length);
      added.forEach((t, i) => table.set(t, i % 3 === 2 ? -1 : restored.length + i));
      for (const [id, t] of restored.entries()) assert.equal(table.get(t), id);
      added.forEach((t, i) => assert.equal(table.get(t), i % 3 === 2 ? -1 : restored.length + i));
      const visited: string[] = [];
      table.forEach((t) => visited.push(t));
      assert.deepEqual(visited, [...restored, ...added.filter((_, i) => i % 3 !== 2)]);
    }),
  );
});

test('a word no table holds is answered at every size, the table never full (a full one would look for ever)', () => {
  for (let n = 1; n <= 70; n++) {
    const terms = Array.from({ length: n }, (_, i) => `w${i}`);
    const table = TermTable.fromList(terms);
    assert.equal(table.get('absent'), undefined);
    assert.equal(table.get(`w${n - 1}`), n - 1);
  }
});

test('a term table holding a term twice is refused (a damaged snapshot), and an empty one holds nothing', () => {
  assert.throws(() => TermTable.fromList(['alpha', 'beta', 'alpha']), /twice/);
  assert.throws(() => TermTable.fromList(['日本', 'x', '日本']), /twice/);
  const empty = TermTable.fromText(new Uint8Array(0));
  assert.equal(empty.count, 0);
  assert.equal(empty.get('alpha'), undefined);
  assert.equal(empty.get(''), undefined);
});

test('a table taken from the layout a snapshot keeps answers as the one hashed from its terms, for any terms', () => {
  fc.assert(
    fc.property(fc.uniqueArray(term, { maxLength: 60 }), fc.array(term, { maxLength: 20 }), (terms, probes) => {
      const text = Buffer.from(terms.join('\n'), 'utf8');
      const { starts, slots } = TermTable.fromText(text).layout();
      // (as read back: copies of the arrays, as a snapshot's sections are)
      const table = TermTable.fromLayout(new Uint8Array(text), new Uint32Array(starts), new Int32Array(slots));
      // (and taken unchecked, as a snapshot its writer left is)
      const unchecked = TermTable.fromLayout(new Uint8Array(text), new Uint32Array(starts), new Int32Array(slots), false);
      const reference = new Map(terms.map((t, id) => [t, id]));
      assert.equal(table.count, terms.length);
      assert.equal(unchecked.count, terms.length);
      for (const t of [...terms, ...probes]) assert.equal(table.get(t), reference.get(t), t);
      for (const t of [...terms, ...probes]) assert.equal(unchecked.get(t), reference.get(t), t);
      const visited: string[] = [];
      table.forEach((t) => visited.push(t));
      assert.deepEqual(visited, terms);
    }),
    { numRuns: 1000 },
  );
});

test('a layout that is not its terms is refused: any one number of it changed, or the layout of other terms', () => {
  const terms = ['alpha', 'beta', 'gamma', 'café', '日本語', 'delta'];
  const text = Buffer.from(terms.join('\n'), 'utf8');
  const { starts, slots } = TermTable.fromText(text).layout();
  fc.assert(
    fc.property(fc.boolean(), fc.nat(), fc.integer({ min: -3, max: 9 }), (inStarts, at, by) => {
      const s = new Uint32Array(starts);
      const t = new Int32Array(slots);
      const array = inStarts ? s : t;
      const i = at % array.length;
      array[i] = Math.max(0, array[i] + by);
      if (array[i] === (inStarts ? starts : slots)[i]) return;
      assert.throws(() => TermTable.fromLayout(new Uint8Array(text), s, t), /layout/);
    }),
  );
  const other = TermTable.fromList(['one', 'two']).layout();
  assert.throws(() => TermTable.fromLayout(new Uint8Array(text), other.starts, other.slots), /layout/);
  assert.equal(TermTable.fromLayout(new Uint8Array(0), new Uint32Array(1), new Int32Array(0)).count, 0);
});

test("a table's bytes are its terms in id order, one a line, and the table written from them answers as it does", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(term, { minLength: 0, maxLength: 40 }),
      fc.integer({ min: 0, max: 40 }),
      fc.array(term, { maxLength: 10 }),
      (all, cut, probes) => {
        const restored = all.slice(0, Math.min(cut, all.length));
        const table = TermTable.fromList(restored);
        const added = all.slice(restored.length);
        let id = restored.length;
        const ids = new Map(restored.map((t, i) => [t, i]));
        // (a stop word among the added: -1, never in the bytes)
        added.forEach((t, i) => (i % 4 === 3 ? table.set(t, -1) : (ids.set(t, id), table.set(t, id++))));
        const bytes = table.bytes(id);
        assert.equal(Buffer.from(bytes).toString('utf8'), [...ids.keys()].join('\n'));
        const written = TermTable.written(bytes, TermTable.fromText(bytes).layout());
        assert.equal(written.count, ids.size);
        for (const t of [...all, ...probes]) assert.equal(written.get(t), ids.get(t), t);
      },
    ),
    { numRuns: 1000 },
  );
});

test('a table missing a term id refuses to give its bytes (a snapshot of them would shift every later term)', () => {
  const table = TermTable.fromList(['alpha', 'beta']);
  table.set('gamma', 3);
  assert.throws(() => table.bytes(4), /no term 2/);
});

test("the layout of a table's bytes made from its own is the layout hashed from the bytes, for any terms restored and added", () => {
  fc.assert(
    fc.property(fc.uniqueArray(term, { minLength: 0, maxLength: 80 }), fc.integer({ min: 0, max: 80 }), (all, cut) => {
      const restored = all.slice(0, Math.min(cut, all.length));
      const table = TermTable.fromList(restored);
      all.slice(restored.length).forEach((t, i) => table.set(t, restored.length + i));
      const bytes = table.bytes(all.length);
      const own = table.layoutOf(bytes);
      const hashed = TermTable.fromText(bytes).layout();
      assert.deepEqual([...own.starts], [...hashed.starts]);
      assert.deepEqual([...own.slots], [...hashed.slots]);
    }),
    { numRuns: 1000 },
  );
});

test('the terms containing a part are found in the bytes, restored and added, as a look at every term finds them', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(term, { maxLength: 60 }),
      fc.integer({ min: 0, max: 60 }),
      fc.oneof(term, fc.constantFrom('a', 'é', '日', 'af')),
      (all, cut, part) => {
        const restored = all.slice(0, Math.min(cut, all.length));
        const table = TermTable.fromList(restored);
        all.slice(restored.length).forEach((t, i) => table.set(t, i % 5 === 4 ? -1 : restored.length + i));
        const expected: number[] = [];
        table.forEach((t, id) => {
          if (t.includes(part)) expected.push(id);
        });
        assert.deepEqual(table.idsContaining(part), expected);
      },
    ),
    { numRuns: 2000 },
  );
});
