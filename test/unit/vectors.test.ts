/**
 * The model's vectors as kept: 8-bit codes rank as the floats do (for every query, each session's similarity within
 * 0.02 of its exact best cosine, and the order of those clearly apart the same), the file reads back what was written,
 * and a damaged file or one of another model is not used.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalised } from '../../src/core/embed/embedder.js';
import { VectorStore } from '../../src/core/embed/vectors.js';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

const DIMS = 48;
const next = random(7);
const vector = (): Float32Array => normalised(Array.from({ length: DIMS }, next));
const sessions = Array.from({ length: 120 }, (_, i) => ({ id: `s${i}`, units: Array.from({ length: 1 + (i % 9) }, vector) }));
const store = new VectorStore('test-model');
for (const s of sessions)
  store.set(
    s.id,
    s.units.map((_, u) => u),
    s.units,
  );
const exact = (q: Float32Array, units: Float32Array[]): number => Math.max(...units.map((u) => u.reduce((sum, x, i) => sum + x * q[i], 0)));

test('for every query, similarities are the exact best cosine within 0.02, and the best session is the exact best', () => {
  for (let n = 0; n < 50; n++) {
    const q = vector();
    const found = store.search(q, sessions.length);
    assert.equal(found.length, sessions.length);
    const truth = new Map(sessions.map((s) => [s.id, exact(q, s.units)]));
    for (const f of found) assert.ok(Math.abs(f.similarity - truth.get(f.key)!) < 0.02, `${f.key}: ${f.similarity} against ${truth.get(f.key)}`);
    const best = [...truth].sort((a, b) => b[1] - a[1]);
    if (best[0][1] - best[1][1] > 0.04) assert.equal(found[0].key, best[0][0]);
  }
});

test('the file reads back the same answers; damaged or of another model, it is not used', () => {
  const bytes = store.encode();
  const back = VectorStore.decode(bytes, 'test-model')!;
  assert.equal(back.entries.size, sessions.length);
  const q = vector();
  assert.deepEqual(back.search(q, 10), store.search(q, 10));
  assert.equal(VectorStore.decode(bytes, 'another-model'), undefined);
  const damaged = Buffer.from(bytes);
  damaged[damaged.length - 5] ^= 0xff;
  assert.equal(VectorStore.decode(damaged, 'test-model'), undefined);
  assert.equal(VectorStore.decode(bytes.subarray(0, bytes.length - 3), 'test-model'), undefined);
  assert.throws(() => store.set('odd', [0], [new Float32Array(DIMS + 1)]), /dimensions/);
});
