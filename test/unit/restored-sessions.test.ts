/**
 * The catalog's sessions (library/restored-sessions.ts) as a property: whatever is restored, asked, set, deleted and
 * cleared, the map answers as a Map given every restored session at once would (values, order, size, one field of
 * each), makes each restored session at most once, and only when a session itself is asked for.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Session } from '../../src/core/model.js';
import { fieldOf, RestoredSessions, type RestoredRows } from '../../src/core/library/restored-sessions.js';

const session = (id: string, tag: string): Session =>
  ({ id, source: 'codex', acronyms: tag === 'none' ? undefined : [[tag, `${tag} expanded`]] }) as unknown as Session;

type Op =
  | { get: number }
  | { has: number }
  | { set: number; tag: string }
  | { delete: number }
  | { clear: true }
  | { restore: { ids: number[]; tags: string[]; dropped: number[] } }
  | { look: 'keys' | 'size' | 'field' | 'values' };

const id = fc.integer({ min: 0, max: 12 });
const tag = fc.constantFrom('none', 'api', 'db', 'ci');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ get: id }) },
  { weight: 2, arbitrary: fc.record({ has: id }) },
  { weight: 3, arbitrary: fc.record({ set: id, tag }) },
  { weight: 2, arbitrary: fc.record({ delete: id }) },
  { weight: 1, arbitrary: fc.constant({ clear: true as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      restore: fc.record({
        ids: fc.array(id, { maxLength: 10 }),
        tags: fc.array(tag, { minLength: 10, maxLength: 10 }),
        dropped: fc.array(id, { maxLength: 3 }),
      }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ look: fc.constantFrom('keys' as const, 'size' as const, 'field' as const, 'values' as const) }) },
);

test('restored sessions answer as a Map holding them all, each made once and only when asked for', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const lazy = new RestoredSessions();
      const plain = new Map<string, Session>();
      // the sessions each restore would make, and how many times each row was made
      let made = new Map<number, number>();
      const state = (): void => {
        assert.deepEqual([...lazy.keys()], [...plain.keys()]);
        assert.equal(lazy.size, plain.size);
        assert.deepEqual(
          [...fieldOf(lazy, 'acronyms')],
          [...plain.values()].map((s) => s.acronyms),
        );
      };
      for (const o of ops) {
        const before = [...made.values()].reduce((a, b) => a + b, 0);
        if ('get' in o) assert.equal(lazy.get(`s${o.get}`), plain.get(`s${o.get}`));
        else if ('has' in o) assert.equal(lazy.has(`s${o.has}`), plain.has(`s${o.has}`));
        else if ('set' in o) {
          const s = session(`s${o.set}`, o.tag);
          assert.equal(lazy.set(s.id, s), lazy);
          plain.set(s.id, s);
        } else if ('delete' in o) assert.equal(lazy.delete(`s${o.delete}`), plain.delete(`s${o.delete}`));
        else if ('clear' in o) {
          lazy.clear();
          plain.clear();
        } else if ('restore' in o) {
          const { ids, tags, dropped } = o.restore;
          const sessions = ids.map((n, row) => session(`s${n}`, tags[row]));
          const keep = (key: string): boolean => !dropped.some((n) => `s${n}` === key);
          const counts = new Map<number, number>();
          const rows: RestoredRows = {
            ids: sessions.map((s) => s.id),
            make: (row) => {
              counts.set(row, (counts.get(row) ?? 0) + 1);
              return sessions[row];
            },
            field: (name, row) => sessions[row][name],
          };
          // (a snapshot's ids are its map's keys: an id twice, or sessions held before, are made at once)
          const lazily = plain.size === 0 && new Set(ids).size === ids.length;
          lazy.restore(rows, keep);
          // as a Map given each kept session in turn
          sessions.forEach((s) => keep(s.id) && plain.set(s.id, s));
          made = counts;
          if (lazily) assert.equal(counts.size, 0, 'nothing is made by a restore into an empty map');
        } else if (o.look === 'keys' || o.look === 'size' || o.look === 'field') {
          state();
          assert.equal(
            [...made.values()].reduce((a, b) => a + b, 0),
            before,
            `${o.look} makes no session`,
          );
        } else assert.deepEqual([...lazy.values()], [...plain.values()]);
        for (const [row, n] of made) assert.equal(n, 1, `row ${row} made ${n} times`);
      }
      state();
      assert.deepEqual([...lazy], [...plain]);
      const visited: [string, Session][] = [];
      lazy.forEach((s, key, map) => {
        assert.equal(map, lazy);
        visited.push([key, s]);
      });
      assert.deepEqual(visited, [...plain.entries()]);
    }),
    { numRuns: 400 },
  );
});
