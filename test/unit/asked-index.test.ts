/**
 * What the user asked (semantic/asked-index.ts): sessions ranked by BM25 over the stems of their title and the user's
 * own prompts. Other word forms meet ("leaking" finds "leak"), a reply's words do not count, a slot scores its best
 * alternative once, removed sessions are gone, and what a session asked is written with the semantic file. A model
 * learned before later sessions brought new words is written whole and read back (as an earlier build wrote it too).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { crc32 } from 'node:zlib';
import { AskedIndex, askedStems, sortedBag, stemOf } from '../../src/core/semantic/asked-index.js';
import { SemanticIndex } from '../../src/core/semantic/semantic-index.js';
import { decodeSemantic, encodeSemantic } from '../../src/core/semantic/semantic-file.js';
import { silentLogger } from '../../src/core/log.js';
import { fuse } from '../../src/core/answer/hybrid.js';
import type { ParsedSession } from '../../src/core/model.js';
import { conversation } from '../helpers.js';

const session = conversation;

const slots = (...words: string[]) => words.map((term) => ({ alts: [{ term, weight: 1 }] }));

test('what was asked, by stem: other forms meet, replies do not count, removed sessions are gone', () => {
  const sessions = [
    session('a', 'memory', ['the watcher keeps leaking file handles after a reload']),
    session('b', 'watcher', ['rename the watcher setting'], ['this fixes a leak of file handles in the watcher']),
    session('c', 'docs', ['write the readme section about caching']),
  ];
  const index = new SemanticIndex(silentLogger, 0, false);
  for (const s of sessions) index.add(s, s.turns);
  // "leak" is what the first session's user asked ("leaking"); the second only has it in a reply
  assert.deepEqual(
    index.searchAsked(slots('leak', 'handle'), 10).map((h) => h.key),
    ['a'],
  );
  assert.deepEqual(
    index.searchAsked(slots('cached'), 10).map((h) => h.key),
    ['c'],
    '"cached" meets "caching"',
  );
  assert.deepEqual(
    index.searchAsked(slots('watcher'), 10).map((h) => h.key),
    ['b', 'a'],
    'the title counts with the prompts: "watcher" twice in b',
  );
  // a literal's words asked (a flag typed in a prompt) are told without reading a turn; a reply's are not
  assert.equal(index.asksAll('a', ['file', 'handles']), true);
  assert.equal(index.asksAll('b', ['file', 'handles']), false);
  assert.equal(index.asksAll('a', ['file', 'nowhere']), false, 'a word no session asked');
  assert.equal(index.asksAll('zzz', ['file']), false, 'an unknown session');
  index.remove('a');
  assert.deepEqual(
    index.searchAsked(slots('leak'), 10).map((h) => h.key),
    [],
  );
  assert.deepEqual(
    index.searchAsked(slots('watcher'), 10, (key) => key !== 'b').map((h) => h.key),
    [],
    'accept filters',
  );
  const data = decodeSemantic(encodeSemantic(index.toData()));
  assert.deepEqual(data?.asked.ids.slice().sort(), ['b', 'c'], 'the asked stems are written with the semantic file');
});

test('a slot scores its best alternative once; a word asked once is kept', () => {
  const index = new AskedIndex();
  const ids = new Map<string, number>();
  const id = (w: string): number => ids.get(w) ?? (ids.set(w, ids.size), ids.size - 1);
  for (const s of [session('x', 't', ['retry the request with a countdown']), session('y', 't', ['retries retried retrying'])])
    index.set(s.id, sortedBag(askedStems(s, s.turns).map(([stem, n]) => [id(stem), n])));
  const twice = index.search(
    [
      {
        alts: [
          { term: 'retry', weight: 1 },
          { term: 'retries', weight: 0.8 },
        ],
      },
    ],
    (s) => ids.get(s),
    10,
  );
  const once = index.search(slots('retry'), (s) => ids.get(s), 10);
  assert.deepEqual(twice, once, 'two forms of one stem count once');
  assert.equal(once[0].key, 'y', 'three forms of "retry" outweigh one');
  const long = session('z', 'zeta', [Array.from({ length: 400 }, (_, i) => `word${i}x`).join(' '), 'word1x '.repeat(50), 'and a rareword']);
  const kept = askedStems(long, long.turns);
  assert.ok(
    kept.some(([s]) => s === 'rareword'),
    'a word met once is kept',
  );
  assert.equal(kept.find(([s]) => s === 'word1x')?.[1], 51);
  assert.equal(stemOf('caching'), stemOf('cached'));
});

test('postings built in one pass, sessions added since found by a scan, removed ones gone after compaction', () => {
  const index = new SemanticIndex(silentLogger, 0, false);
  const ask = (i: number): ParsedSession => session(`s${i}`, 'work', [`please fix the parser group${i % 10} widget`]);
  const add = (s: ParsedSession): void => index.add(s, s.turns);
  for (let i = 0; i < 2_400; i++) add(ask(i));
  const found = (): string[] =>
    index
      .searchAsked(slots('group3'), 1_000)
      .map((h) => h.key)
      .sort();
  const expected = (ids: number[]): string[] =>
    ids
      .filter((i) => i % 10 === 3)
      .map((i) => `s${i}`)
      .sort();
  let live = Array.from({ length: 2_400 }, (_, i) => i);
  assert.deepEqual(found(), expected(live), 'from the postings');
  for (let i = 2_400; i < 2_440; i++) add(ask(i));
  live = [...live, ...Array.from({ length: 40 }, (_, i) => 2_400 + i)];
  assert.deepEqual(found(), expected(live), 'the newest by a scan');
  for (let i = 0; i < 2_400; i += 2) index.remove(`s${i}`);
  live = live.filter((i) => i % 2 === 1 || i >= 2_400);
  assert.deepEqual(found(), expected(live), 'removed ones skipped, then compacted away');
});

test('a search answers the same before the postings are built (the bags scanned) and after, whatever came and went', async () => {
  const WORDS = ['parser', 'watcher', 'token', 'cache', 'socket', 'schema', 'deploy', 'retry', 'pool', 'timeout'];
  const ids = new Map(WORDS.map((w, i) => [stemOf(w), i]));
  const bag = fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: WORDS.length - 1 }), fc.integer({ min: 1, max: 4 })), {
    minLength: 1,
    maxLength: 6,
    selector: ([w]) => w,
  });
  type Step = { add: number; bag: [number, number][] } | { remove: number } | { settle: true };
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ add: fc.integer({ min: 0, max: 400 }), bag }) },
    { weight: 2, arbitrary: fc.record({ remove: fc.integer({ min: 0, max: 400 }) }) },
    { weight: 1, arbitrary: fc.constant({ settle: true as const }) },
  );
  const query = fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 });
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2));
  await fc.assert(
    fc.asyncProperty(
      fc.array(bag, { minLength: 70, maxLength: 300 }),
      fc.array(step, { maxLength: 60 }),
      fc.array(query, { minLength: 1, maxLength: 4 }),
      async (first, steps, queries) => {
        // (built at once after a search, 16 documents a slice: a build runs between the steps, searched meanwhile)
        const index = new AskedIndex(0, 0);
        // (copies: sortedBag sorts what it is given, and the generated values are used again as they shrink)
        first.forEach((b, n) => index.set(`s${n}`, sortedBag(b.map(([w, c]) => [w, c]))));
        const askOf = (of: AskedIndex): { key: string; score: number }[][] =>
          queries.map((q) =>
            of.search(
              q.map((alts) => ({ alts: alts.map((term, i) => ({ term, weight: 1 - i / 4 })) })),
              (stem) => ids.get(stem),
              10,
            ),
          );
        const ask = (): { key: string; score: number }[][] => askOf(index);
        // the same sessions in an index never built: every answer by the scan
        const scanOnly = (): { key: string; score: number }[][] => {
          const fresh = new AskedIndex(60_000);
          for (const [key, b] of index.entries()) fresh.set(key, b);
          const answers = askOf(fresh);
          fresh.clear();
          return answers;
        };
        for (const s of steps) {
          if ('add' in s) index.set(`s${s.add}`, sortedBag(s.bag.map(([w, c]) => [w, c])));
          else if ('remove' in s) index.remove(`s${s.remove}`);
          else {
            assert.deepEqual(ask(), scanOnly(), 'while a build may be under way');
            await settle();
          }
        }
        // asked now: the sessions added since the last build (all of them, at first) are scanned; then from the postings
        const scanned = ask();
        await settle();
        assert.deepEqual(ask(), scanned);
        // restored from what it writes (its rows, some sessions no longer kept): the rows scanned where they lie, then
        // the postings built, answer as the index they were written from, but for the sessions left out
        const dropped = new Set(first.map((_, n) => `s${n}`).filter((_, n) => n % 7 === 3));
        const kept = new AskedIndex(0);
        for (const [key, b] of index.entries()) if (!dropped.has(key)) kept.set(key, b);
        const restored = new AskedIndex(0);
        restored.restore(index.toRows(), (key) => !dropped.has(key));
        const expected = askOf(kept);
        assert.deepEqual(askOf(restored), expected);
        await settle();
        assert.deepEqual(askOf(restored), expected);
        index.clear();
      },
    ),
    { numRuns: 60 },
  );
});

test('fusion: a session first by the words and first by what was asked stays first, whatever meaning says', () => {
  const hit = (key: string, relevance: number) => ({ doc: 0, key, score: relevance, relevance, matchCount: 1, matchedTerms: 1 });
  const lexical = [hit('planted', 0.63), hit('other', 0.35)];
  const semantic = [{ key: 'other', similarity: 0.4 }];
  // meaning alone lifts "other" above "planted" when the asked list has no opinion of its own…
  assert.equal(fuse(lexical, semantic, 2, 0.5, [{ key: 'other', score: 2 }])[0].key, 'other');
  // …but not when the words and what was asked agree on "planted"
  assert.deepEqual(
    fuse(lexical, semantic, 2, 0.5, [
      { key: 'planted', score: 3 },
      { key: 'other', score: 2 },
    ]).map((h) => h.key),
    ['planted', 'other'],
  );
});

test('fusion: keywords all held by the first by words keep it above one that lacks a word, whatever meaning and asking say', () => {
  const hit = (key: string, relevance: number, held: number) => ({ doc: 0, key, score: relevance, relevance, matchCount: 1, matchedTerms: 1, held });
  // three keywords: "planted" holds all three (bits 0-2), the decoy two of them
  const lexical = [hit('planted', 0.6, 0b111), hit('decoy', 0.53, 0b011)];
  const semantic = [{ key: 'decoy', similarity: 0.4 }];
  const asked = [{ key: 'decoy', score: 2 }];
  assert.equal(fuse(lexical, semantic, 2, 0.5, asked)[0].key, 'decoy', 'a sentence (no slot count given): meaning and asking decide');
  const fused = fuse(lexical, semantic, 2, 0.5, asked, 3);
  assert.deepEqual(
    fused.map((h) => h.key),
    ['planted', 'decoy'],
  );
  assert.ok(fused[0].relevance > fused[1].relevance, 'the order is the score shown');
  // when the second holds every keyword too, the fusion decides as before
  assert.equal(fuse([hit('planted', 0.6, 0b111), hit('decoy', 0.53, 0b111)], semantic, 2, 0.5, asked, 3)[0].key, 'decoy');
});

test('a model learned before later sessions brought new words is written whole: read back, it is the model, and ranks the same', async () => {
  const subjects = ['watcher file handles', 'database pool timeout', 'readme caching section', 'parser error recovery'];
  const index = new SemanticIndex(silentLogger, 0, false);
  index.release();
  for (let i = 0; i < 24; i++) {
    const subject = subjects[i % subjects.length];
    const s = session(`s${i}`, subject, [`fix the ${subject} in module ${i}`, `and test the ${subject} again`]);
    index.add(s, s.turns);
  }
  await index.settled();
  assert.equal(index.state.status, 'ready');
  // a session after the model holding words no earlier one held (agents bring new identifiers all day); too few
  // sessions since for the model to be learned again
  const late = session('late', 'zorblat quuxifier', ['configure the zorblat quuxifier for the database pool']);
  index.add(late, late.turns);
  const data = index.toData();
  const known = data.model!.toModel.length;
  assert.ok(known < data.words.length, 'the model knows fewer words than the sessions hold');
  const bytes = encodeSemantic(data);
  const query = ['database', 'pool', 'zorblat'];
  const readBack = (file: Buffer): SemanticIndex => {
    const decoded = decodeSemantic(file);
    assert.ok(decoded?.model, 'the file is read back with its model (not "unreadable", learned again)');
    assert.equal(decoded.vectors.ids.length, 25);
    const restored = new SemanticIndex(silentLogger, 0, false);
    restored.fromData(decoded, () => true);
    assert.equal(restored.state.status, 'ready');
    return restored;
  };
  assert.deepEqual(readBack(bytes).search(query, 5), index.search(query, 5));
  // a file an earlier build wrote: the model's word table only as long as the words known when it was learned
  const aligned = (n: number): number => (n + 3) & ~3;
  const bagBytes = [data.bags, data.asked].reduce((sum, bags) => {
    const total = bags.starts[bags.ids.length];
    return sum + total * 4 + (total + (total % 2)) * 2;
  }, 0);
  const table = 16 + aligned(bytes.readUInt32LE(8)) + bagBytes;
  const earlier = Buffer.concat([bytes.subarray(0, table + known * 4), bytes.subarray(table + data.words.length * 4)]);
  earlier.writeUInt32LE(crc32(earlier.subarray(16)), 12);
  assert.deepEqual(readBack(earlier).search(query, 5), index.search(query, 5));
});
