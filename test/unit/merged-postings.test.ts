/**
 * Segments merged as a snapshot is written: for any segments (in memory or read from a file in pieces of any size),
 * any documents removed, the merged postings are each term's postings of every segment in age order, those of removed
 * documents left out, and each frequency stays beside its document.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PagedArray, Segment } from '../../src/core/index/postings.js';
import { mergePostings } from '../../src/core/store/merged-postings.js';

function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n);
  };
}

/** An array as a snapshot file hands it out: pieces of uneven sizes, each in the same reused buffer. */
function onDisk(values: Int32Array | Uint32Array, next: (n: number) => number): PagedArray {
  return {
    length: values.length,
    read: (from, to) => values.slice(from, to),
    readAll: () => values.slice(),
    *chunks() {
      const reused = new Uint32Array(values.length + 1);
      for (let at = 0; at < values.length;) {
        const n = Math.min(values.length - at, 1 + next(4096));
        reused.fill(0xdead);
        reused.set(values.subarray(at, at + n));
        yield new Uint8Array(reused.buffer, 0, n * 4);
        at += n;
      }
    },
  };
}

interface Plain {
  terms: number;
  offsets: Uint32Array;
  docs: Int32Array;
  freqs: Uint32Array;
}

function randomSegment(next: (n: number) => number, terms: number, docs: number, longest: number): Plain {
  const offsets = new Uint32Array(terms + 1);
  const d: number[] = [];
  const f: number[] = [];
  for (let t = 0; t < terms; t++) {
    const n = next(4) ? next(4) : next(longest); // mostly short lists, now and then a long one
    for (let i = 0; i < n; i++) {
      d.push(next(docs));
      f.push(1 + next(50));
    }
    offsets[t + 1] = d.length;
  }
  return { terms, offsets, docs: Int32Array.from(d), freqs: Uint32Array.from(f) };
}

function expected(segments: Plain[], terms: number, alive: Uint8Array): { offsets: number[]; docs: number[]; freqs: number[] } {
  const offsets = [0];
  const docs: number[] = [];
  const freqs: number[] = [];
  for (let t = 0; t < terms; t++) {
    for (const s of segments) {
      if (t >= s.terms) continue;
      for (let i = s.offsets[t]; i < s.offsets[t + 1]; i++) {
        if (!alive[s.docs[i]]) continue;
        docs.push(s.docs[i]);
        freqs.push(s.freqs[i]);
      }
    }
    offsets.push(docs.length);
  }
  return { offsets, docs, freqs };
}

function collect(chunks: Iterable<Uint8Array>): number[] {
  const out: number[] = [];
  for (const chunk of chunks) for (const v of new Uint32Array(chunk.slice().buffer)) out.push(v);
  return out;
}

function check(seed: number, segmentCount: number, docs: number, longest: number, least = 0): void {
  const next = random(seed);
  const terms = 1 + next(400);
  // older segments know fewer terms (terms are numbered as they are first seen)
  const plain = Array.from({ length: segmentCount }, (_, k) => randomSegment(next, Math.max(1, terms - next(terms) * (segmentCount - 1 - k)), docs, longest));
  const alive = Uint8Array.from({ length: docs }, () => (next(5) ? 1 : 0));
  const anyRemoved = seed % 3 !== 0;
  if (!anyRemoved) alive.fill(1);
  const segments: Segment[] = plain.map((s) =>
    next(2) ? { ...s } : { terms: s.terms, offsets: s.offsets, docs: onDisk(s.docs, next), freqs: onDisk(s.freqs, next) },
  );
  const merged = mergePostings(segments, terms, alive, anyRemoved);
  const want = expected(plain, terms, alive);
  assert.ok(want.docs.length >= least, `seed ${seed}: ${want.docs.length} postings`);
  assert.deepEqual([...merged.offsets], want.offsets, `seed ${seed}: offsets`);
  assert.equal(merged.docs.length, want.docs.length, `seed ${seed}: length`);
  assert.deepEqual(collect(merged.docs.chunks()), want.docs, `seed ${seed}: documents`);
  assert.deepEqual(collect(merged.freqs.chunks()), want.freqs, `seed ${seed}: frequencies beside their documents`);
}

test('merged postings are every segment’s, term by term in age order, without removed documents', () => {
  for (let seed = 1; seed <= 150; seed++) check(seed, 1 + (seed % 4), 1 + (seed % 97), 40);
});

test('a merge longer than the pieces it is handed out in (over a million postings) comes out whole', () => {
  check(7, 3, 5000, 40_000, 1 << 20);
  check(9, 3, 5000, 40_000, 1 << 20);
});
