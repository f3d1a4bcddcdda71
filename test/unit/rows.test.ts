/**
 * The semantic leg's rows (src/core/semantic/rows.ts) as properties: a RowMap restored from rows behaves, for any
 * sequence of changes, as a Map into which every kept row had been set in order; bags packed into rows are read back as
 * they were.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { bagAt, packBags, RowMap } from '../../src/core/semantic/rows.js';
import type { Bag } from '../../src/core/semantic/lsa.js';

type Op = { set: string; value: number } | { delete: string } | { restore: string[]; drop: string[] };

const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ set: id, value: fc.integer() }) },
  { weight: 3, arbitrary: fc.record({ delete: id }) },
  { weight: 1, arbitrary: fc.record({ restore: fc.uniqueArray(id, { maxLength: 7 }), drop: fc.array(id, { maxLength: 2 }) }) },
);

test('a map restored from rows answers, iterates and counts as a Map of the kept rows would, whatever is set or deleted after', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const rows = new RowMap<number>();
      const model = new Map<string, number>();
      for (const o of ops) {
        if ('set' in o) {
          rows.set(o.set, o.value);
          model.set(o.set, o.value);
          assert.equal(rows.asRestored, undefined, 'no longer the rows as read once a value is set');
        } else if ('delete' in o) {
          const held = model.has(o.delete);
          rows.delete(o.delete);
          model.delete(o.delete);
          if (held) assert.equal(rows.asRestored, undefined, 'no longer the rows as read once one is taken away');
        } else {
          // a row's value is its number times 1000 (made when read)
          const keep = (key: string): boolean => !o.drop.includes(key);
          rows.restore(o.restore, (row) => row * 1000, keep);
          model.clear();
          o.restore.forEach((key, row) => keep(key) && model.set(key, row * 1000));
          assert.equal(rows.asRestored !== undefined, o.restore.every(keep), 'whole exactly when every row was kept');
        }
        assert.equal(rows.size, model.size);
        assert.deepEqual([...rows], [...model]);
        assert.deepEqual([...rows.keys()], [...model.keys()]);
        assert.deepEqual([...rows.values()], [...model.values()]);
        for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) {
          assert.equal(rows.has(key), model.has(key), key);
          assert.equal(rows.get(key), model.get(key), key);
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('a restored map makes no value until one is read', () => {
  const rows = new RowMap<string>();
  const made: number[] = [];
  rows.restore(
    ['x', 'y', 'z'],
    (row) => (made.push(row), `row ${row}`),
    () => true,
  );
  assert.equal(rows.size, 3);
  assert.ok(rows.has('y'));
  assert.deepEqual([...rows.keys()], ['x', 'y', 'z']);
  assert.deepEqual(made, [], 'size, has and keys read no row');
  assert.equal(rows.get('y'), 'row 1');
  assert.deepEqual(made, [1]);
  assert.deepEqual(rows.asRestored, ['x', 'y', 'z']);
});

test('bags packed into rows are read back as they were, each a view of its own part', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.string(), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 65_535 })), { maxLength: 6 })), { maxLength: 12 }),
      (list) => {
        const bags: [string, Bag][] = list.map(([key, pairs]) => [
          key,
          { terms: Uint32Array.from(pairs, ([t]) => t), counts: Uint16Array.from(pairs, ([, n]) => n) },
        ]);
        const packed = packBags(bags);
        assert.deepEqual(
          packed.ids,
          bags.map(([key]) => key),
        );
        bags.forEach(([, bag], i) => {
          const read = bagAt(packed, i);
          assert.deepEqual([...read.terms], [...bag.terms]);
          assert.deepEqual([...read.counts], [...bag.counts]);
          assert.equal(read.terms.buffer, packed.terms.buffer, 'a view, not a copy');
        });
      },
    ),
  );
});
