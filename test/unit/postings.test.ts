/**
 * The posting store's pending buffers: a bulk load seals them full again and again, and they are kept while it does;
 * the first seal of fewer (the load over, or a query sealing what it added) gives their memory back. Either way every
 * posting added is in the segments, in document order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PostingStore, SEAL_THRESHOLD, termPostings } from '../../src/core/index/postings.js';

const TERMS = 1000;
const alive = (): boolean => true;

/** Adds `count` postings as a load does, document after document, `per` terms each; returns the next document. */
function load(store: PostingStore, firstDoc: number, count: number, per = 500): number {
  let doc = firstDoc;
  for (let added = 0; added < count; doc++) {
    for (let k = 0; k < per && added < count; k++, added++) store.add((doc * 7 + k) % TERMS, doc, 1);
    if (store.pending > SEAL_THRESHOLD) store.seal(TERMS, alive);
  }
  return doc;
}

test('a bulk load keeps its pending buffers between seals and gives them back when a seal finds fewer postings', () => {
  const store = new PostingStore();
  const small = store.bufferBytes;
  load(store, 0, 3 * SEAL_THRESHOLD + 12345);
  assert.equal(store.segments.length, 3, 'three full seals');
  assert.ok(store.bufferBytes >= 12 * SEAL_THRESHOLD, 'the buffers a full seal emptied are kept for the next');
  const inSegments = store.segments.reduce((n, s) => n + s.offsets.byteLength + (s.docs as Int32Array).byteLength + (s.freqs as Uint32Array).byteLength, 0);
  assert.ok(store.pending > 0);
  assert.equal(store.bytes, inSegments + store.pending * 12, 'what a checkpoint counts: the postings held, not the room kept for them');
  store.seal(TERMS, alive); // the load over: the rest sealed
  assert.equal(store.pending, 0);
  assert.equal(store.bufferBytes, small, 'and given back');

  // every posting is there, each term's documents in order
  let postings = 0;
  for (const seg of store.segments) {
    for (let t = 0; t < TERMS; t++) {
      const { docs: d, from, to } = termPostings(seg, t);
      postings += to - from;
      for (let i = from + 1; i < to; i++) assert.ok(d[i] > d[i - 1]);
    }
  }
  assert.equal(postings, 3 * SEAL_THRESHOLD + 12345);
});

test('one document larger than the buffers grows them as needed', () => {
  const store = new PostingStore();
  load(store, 0, SEAL_THRESHOLD - 10);
  // a single document of 200,000 terms added when the buffers are nearly full: they grow past a seal's worth
  for (let k = 0; k < 200_000; k++) store.add(k % TERMS, 1_000_000, 1);
  assert.equal(store.pending, SEAL_THRESHOLD - 10 + 200_000);
  store.seal(TERMS, alive);
  assert.equal(store.pending, 0);
  let held = 0;
  for (const seg of store.segments)
    for (let t = 0; t < TERMS; t++) {
      const { docs, from, to } = termPostings(seg, t);
      for (let i = from; i < to; i++) if (docs[i] === 1_000_000) held++;
    }
  assert.equal(held, 200_000, 'every posting of the large document is in the segment');
});
