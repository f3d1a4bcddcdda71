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

/**
 * An array read front to back: one in memory as it is, one on disk a checked chunk at a time. `ready(n)` makes up to
 * `n` elements available at `piece[at]`, `advance` moves past them: no object is made per term (a merge at 50,000
 * sessions walks millions of terms in each of several segments).
 */
class Sequential {
  piece: Uint32Array;
  at = 0;
  private readonly pieces: Iterator<Uint8Array> | undefined;

  constructor(values: Int32Array | Uint32Array | PagedArray) {
    if (values instanceof Int32Array || values instanceof Uint32Array) {
      this.piece = new Uint32Array(values.buffer, values.byteOffset, values.length);
    } else {
      this.piece = new Uint32Array(0);
      this.pieces = values.chunks()[Symbol.iterator]();
    }
  }

  /** How many of the next `n` elements lie at `piece[at]` onwards (at least one, when n > 0). */
  ready(n: number): number {
    if (this.at === this.piece.length) this.refill();
    return Math.min(n, this.piece.length - this.at);
  }

  advance(k: number): void {
    this.at += k;
  }

  /** Copies the next `n` elements into `into` (from index 0). */
  take(n: number, into: Uint32Array): void {
    for (let done = 0; done < n;) {
      const k = this.ready(n - done);
      into.set(this.piece.subarray(this.at, this.at + k), done);
      this.advance(k);
      done += k;
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

/** Runs shorter than this are copied element by element (a view made to copy a few elements costs more). */
const SHORT_RUN = 16;

/** The merged array's pieces, filled a run of postings at a time (plain methods: the loops stay fast, unlike in a generator). */
class Pieces {
  private readonly buffer = new Uint32Array(PIECE);
  private used = 0;

  /** Copies `piece[from..end)` until the piece is full; returns where it stopped. */
  copy(piece: Uint32Array, from: number, end: number): number {
    const n = Math.min(end - from, PIECE - this.used);
    if (n < SHORT_RUN) for (let j = 0; j < n; j++) this.buffer[this.used++] = piece[from + j];
    else {
      this.buffer.set(piece.subarray(from, from + n), this.used);
      this.used += n;
    }
    return from + n;
  }

  /** The same, of the elements whose document is alive: element `from + j`'s document is `ids[idsAt + j]`. */
  copyAlive(piece: Uint32Array, from: number, end: number, ids: Uint32Array, idsAt: number, alive: Uint8Array): number {
    const buffer = this.buffer;
    let used = this.used;
    let i = from;
    for (; i < end && used < PIECE; i++) if (alive[ids[idsAt + i - from]]) buffer[used++] = piece[i];
    this.used = used;
    return i;
  }

  get full(): boolean {
    return this.used === PIECE;
  }

  get empty(): boolean {
    return this.used === 0;
  }

  /** The elements collected so far, as bytes (valid until the next copy: the buffer is used again, ChunkedArray). */
  flush(): Uint8Array {
    const out = new Uint8Array(this.buffer.buffer, 0, this.used * 4);
    this.used = 0;
    return out;
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
      for (let k = 0; k < segments.length; k++) {
        const s = segments[k];
        if (t >= s.terms) continue;
        const docs = cursors[k];
        for (let left = s.offsets[t + 1] - s.offsets[t]; left > 0;) {
          const got = docs.ready(left);
          const piece = docs.piece;
          for (let i = docs.at, end = docs.at + got; i < end; i++) if (alive[piece[i]]) n++;
          docs.advance(got);
          left -= got;
        }
      }
      offsets[t + 1] = offsets[t] + n;
    }
  }
  const length = offsets[terms];
  const merged = (which: 'docs' | 'freqs'): ChunkedArray => ({
    length,
    *chunks(): Generator<Uint8Array> {
      const values = segments.map((s) => new Sequential(s[which]));
      // the frequencies of kept documents: their documents read beside them, a term's at a time
      const docs = anyRemoved && which === 'freqs' ? segments.map((s) => new Sequential(s.docs)) : undefined;
      let keep = new Uint32Array(0);
      const out = new Pieces();
      for (let t = 0; t < terms; t++) {
        for (let k = 0; k < segments.length; k++) {
          const s = segments[k];
          if (t >= s.terms) continue;
          const n = s.offsets[t + 1] - s.offsets[t];
          if (!n) continue;
          const from = values[k];
          if (docs) {
            if (keep.length < n) keep = new Uint32Array(Math.max(n, keep.length * 2));
            docs[k].take(n, keep);
          }
          for (let left = n, nth = 0; left > 0;) {
            const got = from.ready(left);
            const piece = from.piece;
            const start = from.at;
            const end = start + got;
            for (let i = start; i < end;) {
              // (a posting's document: the value itself, or for a frequency the one read beside it, `keep[nth]`)
              if (!anyRemoved) i = out.copy(piece, i, end);
              else i = docs ? out.copyAlive(piece, i, end, keep, nth + i - start, alive) : out.copyAlive(piece, i, end, piece, i, alive);
              if (out.full) yield out.flush();
            }
            from.advance(got);
            left -= got;
            nth += got;
          }
        }
      }
      if (!out.empty) yield out.flush();
    },
  });
  return { terms, offsets, docs: merged('docs'), freqs: merged('freqs') };
}
