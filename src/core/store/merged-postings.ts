/**
 * Every segment of the index merged into one as a snapshot is written, front to back, a piece at a time: a segment in
 * memory is read as it is, one in the previous snapshot file in checked chunks, so writing never holds more than a few
 * pieces whatever the index's size. The index then reads one segment from the new file (SearchIndex.useSnapshotArrays)
 * and the memory its segments took is let go: the postings are compacted as they grow, not kept in memory until a
 * merge. Postings of removed documents are dropped on the way.
 */
import type { ChunkedArray } from '../index/state.js';
import type { PagedArray, Segment } from '../index/postings.js';

/** Elements per piece handed to the writer (4 MB). */
const PIECE = 1 << 20;

/** An array read front to back: one in memory as it is, one on disk a checked chunk at a time. */
class Sequential {
  private piece: Uint32Array;
  private at = 0;
  private readonly pieces: Iterator<Uint8Array> | undefined;

  constructor(values: Int32Array | Uint32Array | PagedArray) {
    if (values instanceof Int32Array || values instanceof Uint32Array) {
      this.piece = new Uint32Array(values.buffer, values.byteOffset, values.length);
    } else {
      this.piece = new Uint32Array(0);
      this.pieces = values.chunks()[Symbol.iterator]();
    }
  }

  /** The next `n` elements, in one or more runs (views valid until the next call). */
  *take(n: number): Generator<Uint32Array> {
    while (n > 0) {
      if (this.at === this.piece.length) this.refill();
      const k = Math.min(n, this.piece.length - this.at);
      yield this.piece.subarray(this.at, this.at + k);
      this.at += k;
      n -= k;
    }
  }

  private refill(): void {
    const next = this.pieces?.next();
    if (!next || next.done) throw new Error('an index segment ends before its offsets do');
    const bytes = next.value.byteOffset % 4 ? new Uint8Array(next.value) : next.value;
    this.piece = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
    this.at = 0;
  }
}

/** Collects elements into pieces of PIECE elements, handed out as bytes. */
class Pieces {
  private readonly buffer = new Uint32Array(PIECE);
  private used = 0;

  *push(run: Uint32Array, keep?: Uint32Array, alive?: Uint8Array): Generator<Uint8Array> {
    for (let i = 0; i < run.length;) {
      if (!keep || !alive) {
        const k = Math.min(run.length - i, PIECE - this.used);
        this.buffer.set(run.subarray(i, i + k), this.used);
        this.used += k;
        i += k;
      } else {
        for (; i < run.length && this.used < PIECE; i++) if (alive[keep[i]]) this.buffer[this.used++] = run[i];
      }
      if (this.used === PIECE) yield this.flush();
    }
  }

  /** The elements collected so far, as bytes (valid until the next push: the buffer is used again, ChunkedArray). */
  flush(): Uint8Array {
    const out = new Uint8Array(this.buffer.buffer, 0, this.used * 4);
    this.used = 0;
    return out;
  }

  get empty(): boolean {
    return this.used === 0;
  }
}

export interface MergedPostings {
  terms: number;
  offsets: Uint32Array<ArrayBuffer>;
  docs: ChunkedArray;
  freqs: ChunkedArray;
}

/**
 * The segments (in age order) as one, over `terms` terms; `alive` says which documents' postings are kept (1 by document
 * number: a lookup in a typed array, for each of hundreds of millions of postings).
 */
export function mergePostings(segments: readonly Segment[], terms: number, alive: Uint8Array, anyRemoved: boolean): MergedPostings {
  const offsets = new Uint32Array(terms + 1);
  if (!anyRemoved) {
    for (let t = 0; t < terms; t++) {
      let n = 0;
      for (const s of segments) if (t < s.terms) n += s.offsets[t + 1] - s.offsets[t];
      offsets[t + 1] = offsets[t] + n;
    }
  } else {
    // a counting pass over the documents first: removed documents' postings are left out
    const cursors = segments.map((s) => new Sequential(s.docs));
    for (let t = 0; t < terms; t++) {
      let n = 0;
      segments.forEach((s, k) => {
        if (t >= s.terms) return;
        for (const run of cursors[k].take(s.offsets[t + 1] - s.offsets[t])) for (let i = 0; i < run.length; i++) if (alive[run[i]]) n++;
      });
      offsets[t + 1] = offsets[t] + n;
    }
  }
  const length = offsets[terms];
  const merged = (which: 'docs' | 'freqs'): ChunkedArray => ({
    length,
    *chunks(): Generator<Uint8Array> {
      const values = segments.map((s) => new Sequential(s[which]));
      const docs = anyRemoved && which === 'freqs' ? segments.map((s) => new Sequential(s.docs)) : undefined;
      const out = new Pieces();
      for (let t = 0; t < terms; t++) {
        for (let k = 0; k < segments.length; k++) {
          const s = segments[k];
          if (t >= s.terms) continue;
          const n = s.offsets[t + 1] - s.offsets[t];
          if (!n) continue;
          if (!anyRemoved) {
            for (const run of values[k].take(n)) yield* out.push(run);
          } else if (which === 'docs') {
            for (const run of values[k].take(n)) yield* out.push(run, run, alive);
          } else {
            // the frequencies of kept documents: read beside the documents, run by run
            const keep = new Uint32Array(n);
            let at = 0;
            for (const run of docs![k].take(n)) keep.set(run, (at += run.length) - run.length);
            at = 0;
            for (const run of values[k].take(n)) yield* out.push(run, keep.subarray(at, (at += run.length)), alive);
          }
        }
      }
      if (!out.empty) yield out.flush();
    },
  });
  return { terms, offsets, docs: merged('docs'), freqs: merged('freqs') };
}
