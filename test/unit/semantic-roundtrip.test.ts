/**
 * The semantic leg's file as a property: whatever sessions came and went, and whenever the model was learned, the leg
 * written to its file (semantic-file.ts) and read back into an empty leg, as a restart does, is the leg that was
 * written. It is read, not found damaged; it is ready exactly when the written one was; and it answers every query by
 * meaning and by what was asked with the same sessions and scores, wherever in memory the file's bytes were read to;
 * read keeping only some sessions, and changed after as the written leg is, it still answers and writes as that leg.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { crc32 } from 'node:zlib';
import type { ParsedSession } from '../../src/core/model.js';
import { silentLogger } from '../../src/core/log.js';
import { decodeSemantic, encodeSemantic } from '../../src/core/semantic/semantic-file.js';
import { SemanticIndex } from '../../src/core/semantic/semantic-index.js';
import { conversation } from '../helpers.js';

/** Words sessions share (so that a model has something to learn), and words only one session holds. */
const COMMON = ['watcher', 'database', 'pool', 'timeout', 'parser', 'cache', 'readme', 'deploy', 'token', 'schema', 'retry', 'socket'];

const session = (id: string, words: string[]): ParsedSession =>
  conversation(id, words[0] ?? 'notes', [`please look at the ${words.join(' ')}`], [`done with the ${words.slice().reverse().join(' ')}`]);

type Step = { add: number; words: string[] } | { remove: number } | { learn: true };

const word = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...COMMON) }, { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{5,9}$/) });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ add: fc.integer({ min: 0, max: 40 }), words: fc.array(word, { minLength: 1, maxLength: 8 }) }) },
  { weight: 2, arbitrary: fc.record({ remove: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 1, arbitrary: fc.constant({ learn: true as const }) },
);

test('the semantic leg written to its file and read back answers as the leg that was written, whatever came and went', async () => {
  let ready = 0;
  let learnedThenGrew = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(word, { minLength: 2, maxLength: 8 }), { minLength: 20, maxLength: 30 }),
      fc.array(step, { maxLength: 30 }),
      fc.array(fc.array(word, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 7 }),
      fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 4 }),
      fc.array(
        step.filter((s) => !('learn' in s)),
        { maxLength: 12 },
      ),
      async (first, steps, queries, shift, dropped, after) => {
        const leg = new SemanticIndex(silentLogger, 0, false);
        leg.release();
        const add = (to: SemanticIndex, n: number, words: string[]): void => {
          const s = session(`s${n}`, words);
          to.add(s, s.turns);
        };
        first.forEach((words, n) => add(leg, n, words));
        for (const s of steps) {
          if ('add' in s) add(leg, s.add, s.words);
          else if ('remove' in s) leg.remove(`s${s.remove}`);
          else await leg.settled();
        }
        const data = leg.toData();
        if (data.model) ready++;
        if (data.model && data.model.toModel.length < data.words.length) learnedThenGrew++;
        // the file's bytes wherever a read puts them: the arrays are views into them, on a 4-byte boundary or not
        const file = encodeSemantic(data);
        const placed = Buffer.alloc(file.length + shift);
        file.copy(placed, shift);
        const decoded = decodeSemantic(placed.subarray(shift));
        assert.ok(decoded, 'the file is read, not found damaged');
        // read back keeping only some sessions (as a library keeps those its catalog still holds), then both legs
        // changed alike: the restored sessions' rows, read as they lie, and values set since answer as the leg's
        const gone = new Set(dropped.map((n) => `s${n}`));
        const restored = new SemanticIndex(silentLogger, 0, false);
        restored.fromData(decoded, (id) => !gone.has(id));
        for (const id of gone) leg.remove(id);
        const same = (when: string): void => {
          assert.equal(restored.state.status, leg.state.status, when);
          assert.equal(restored.state.sessions, leg.state.sessions, when);
          assert.equal(restored.state.vectors, leg.state.vectors, when);
          for (const words of queries) {
            assert.deepEqual(restored.search(words, 10), leg.search(words, 10), `${when}, by meaning: ${words.join(' ')}`);
            const slots = words.map((term) => ({ alts: [{ term, weight: 1 }] }));
            assert.deepEqual(restored.searchAsked(slots, 10), leg.searchAsked(slots, 10), `${when}, by what was asked: ${words.join(' ')}`);
            assert.equal(restored.asksAll('s1', words), leg.asksAll('s1', words), when);
          }
          assert.deepEqual(encodeSemantic(restored.toData()), encodeSemantic(leg.toData()), `${when}: written again, the same file`);
        };
        same('as read');
        for (const s of after)
          for (const one of [leg, restored]) {
            if ('add' in s) add(one, s.add, s.words);
            else if ('remove' in s) one.remove(`s${s.remove}`);
          }
        same('changed since');
        leg.close();
        restored.close();
      },
    ),
    { numRuns: 40 },
  );
  // (the runs covered a learned model, and one learned before sessions brought words it was not learned with)
  assert.ok(ready > 0 && learnedThenGrew > 0, `${ready} runs with a model, ${learnedThenGrew} with words after it`);
});

/** The file of `data` as the previous layout wrote it: version 3, every list of ids written out. */
function previousLayout(file: Buffer): Buffer {
  const length = file.readUInt32LE(8);
  const header = JSON.parse(file.subarray(16, 16 + length).toString('utf8')) as { ids: string[]; askedIds: string[] | null; vectorIds: string[] | null };
  assert.ok(header.askedIds === null && header.vectorIds === null, 'lists the same as the first are written as null');
  const json = Buffer.from(JSON.stringify({ ...header, askedIds: header.ids, vectorIds: header.ids }), 'utf8');
  const aligned = (n: number): number => (n + 3) & ~3;
  const head = Buffer.alloc(16);
  head.writeUInt32LE(file.readUInt32LE(0), 0);
  head.writeUInt32LE(3, 4);
  head.writeUInt32LE(json.length, 8);
  const out = Buffer.concat([head, json, Buffer.alloc(aligned(json.length) - json.length), file.subarray(16 + aligned(length))]);
  out.writeUInt32LE(crc32(out.subarray(16)), 12);
  return out;
}

test('a file of the previous layout (every list of ids written out) is read as the same leg', async () => {
  const leg = new SemanticIndex(silentLogger, 0, false);
  leg.release();
  for (let n = 0; n < 24; n++) {
    const s = session(`s${n}`, [COMMON[n % COMMON.length], COMMON[(n * 5) % COMMON.length], `only${'abcdefghijklmnopqrstuvwx'[n]}word`]);
    leg.add(s, s.turns);
  }
  await leg.settled();
  const data = leg.toData();
  assert.ok(data.model, 'a model was learned');
  const file = encodeSemantic(data);
  const now = decodeSemantic(file);
  const before = decodeSemantic(previousLayout(file));
  assert.ok(now && before);
  assert.deepEqual(before, now);
  assert.deepEqual(now.vectors.ids, data.vectors.ids);
  assert.ok(file.length < previousLayout(file).length);
  leg.close();
});
