/**
 * Postings stored as immutable segments (compressed-sparse-row: per-term offsets into flat arrays of document numbers
 * and packed frequencies) plus a pending buffer of (term, doc, freqs) triples appended in document order. Building
 * writes sequentially and sorts once per segment by counting sort, instead of growing one array per term. A bulk load
 * seals every few million triples; when segments pile up they are merged into one.
 */

/** Frequencies saturate in BM25 long before these caps: topic 8 bits, content and messages 12 bits each. */
export const FIELD_LIMITS = [0xff, 0xfff, 0xfff] as const;

export function packFields(topic: number, content: number, messages: number): number {
  return (Math.min(topic, 0xff) | (Math.min(content, 0xfff) << 8) | (Math.min(messages, 0xfff) << 20)) >>> 0;
}

const INITIAL_PENDING = 1 << 16;
/** Pending triples sealed into a segment during a bulk load: bounds the buffer's memory (12 bytes a triple). */
export const SEAL_THRESHOLD = 1 << 22;
/** How far the pending buffers grow by doubling: a seal's worth and some (one document adds all its terms at once). */
const PENDING_CAP = SEAL_THRESHOLD + INITIAL_PENDING;
/** A query visits every segment; past this many the newest are merged (each merge also drops removed documents). */
const MAX_SEGMENTS = 12;

/** An array that is read a range at a time (one that stays in a snapshot file: store/disk-array.ts). */
export interface PagedArray {
  readonly length: number;
  read(from: number, to: number): Int32Array | Uint32Array;
  readAll(): Int32Array | Uint32Array;
  /** Its bytes a piece at a time, for copying into the next snapshot. */
  chunks(): Iterable<Uint8Array>;
}

export interface Segment {
  /** Number of terms the offsets cover (terms created later have no entries here). */
  terms: number;
  offsets: Uint32Array;
  docs: Int32Array | PagedArray;
  freqs: Uint32Array | PagedArray;
}

/** A segment whose postings are in memory. */
interface MemorySegment extends Segment {
  docs: Int32Array;
  freqs: Uint32Array;
}

/** The postings of term `t` in a segment: `docs[i]`, `freqs[i]` for `from <= i < to` (read from disk when they are there). */
export function termPostings(seg: Segment, t: number): { docs: Int32Array; freqs: Uint32Array; from: number; to: number } {
  const from = seg.offsets[t];
  const to = seg.offsets[t + 1];
  if (seg.docs instanceof Int32Array && seg.freqs instanceof Uint32Array) return { docs: seg.docs, freqs: seg.freqs, from, to };
  const docs = seg.docs instanceof Int32Array ? seg.docs.subarray(from, to) : (seg.docs.read(from, to) as Int32Array);
  const freqs = seg.freqs instanceof Uint32Array ? seg.freqs.subarray(from, to) : (seg.freqs.read(from, to) as Uint32Array);
  return { docs, freqs, from: 0, to: to - from };
}

function isInMemory(seg: Segment): seg is MemorySegment {
  return seg.docs instanceof Int32Array && seg.freqs instanceof Uint32Array;
}

/**
 * `array`, or a copy at least `needed` long where it is shorter: twice as long, or only up to `cap` when doubling
 * would pass it (and twice as long again once past it); the rest zero.
 */
export function grow<T extends Uint16Array | Uint32Array | Int32Array | Float64Array>(array: T, needed: number, cap = Infinity): T {
  if (needed <= array.length) return array;
  const doubled = array.length < cap ? Math.min(array.length * 2, cap) : array.length * 2;
  const next = new (array.constructor as new (n: number) => T)(Math.max(needed, doubled));
  next.set(array);
  return next;
}

export class PostingStore {
  readonly segments: Segment[] = [];
  private pendingTerms = new Uint32Array(INITIAL_PENDING);
  private pendingDocs = new Int32Array(INITIAL_PENDING);
  private pendingFreqs = new Uint32Array(INITIAL_PENDING);
  private pendingLength = 0;

  get pending(): number {
    return this.pendingLength;
  }

  add(term: number, doc: number, packed: number): void {
    const n = this.pendingLength + 1;
    if (n > this.pendingTerms.length) {
      // doubled, but not past what a bulk load's seal holds (just over SEAL_THRESHOLD): where it filled them, it
      // fills them again, and memory allocated here is memory touched for the first time
      this.pendingTerms = grow(this.pendingTerms, n, PENDING_CAP);
      this.pendingDocs = grow(this.pendingDocs, n, PENDING_CAP);
      this.pendingFreqs = grow(this.pendingFreqs, n, PENDING_CAP);
    }
    this.pendingTerms[this.pendingLength] = term;
    this.pendingDocs[this.pendingLength] = doc;
    this.pendingFreqs[this.pendingLength] = packed;
    this.pendingLength = n;
  }

  /** Turns pending triples into a segment (counting sort by term; document order is kept) and merges size-tiered. */
  seal(termCount: number, alive: (doc: number) => boolean): void {
    const full = this.pendingLength > SEAL_THRESHOLD;
    if (this.pendingLength) {
      const offsets = new Uint32Array(termCount + 1);
      for (let i = 0; i < this.pendingLength; i++) offsets[this.pendingTerms[i] + 1]++;
      for (let t = 0; t < termCount; t++) offsets[t + 1] += offsets[t];
      const cursor = offsets.slice(0, termCount);
      const docs = new Int32Array(this.pendingLength);
      const freqs = new Uint32Array(this.pendingLength);
      for (let i = 0; i < this.pendingLength; i++) {
        const at = cursor[this.pendingTerms[i]]++;
        docs[at] = this.pendingDocs[i];
        freqs[at] = this.pendingFreqs[i];
      }
      this.pendingLength = 0;
      this.segments.push({ terms: termCount, offsets, docs, freqs });
      if (this.segments.length > MAX_SEGMENTS) this.mergeTail(termCount, alive);
    }
    // A bulk load grows the pending buffers and seals them full again and again: they are kept while it does, and
    // their memory given back at the first seal of fewer (when the load has ended, or a query sealed what it added).
    if (!full && this.pendingTerms.length > INITIAL_PENDING) {
      this.pendingTerms = new Uint32Array(INITIAL_PENDING);
      this.pendingDocs = new Int32Array(INITIAL_PENDING);
      this.pendingFreqs = new Uint32Array(INITIAL_PENDING);
    }
  }

  /**
   * Merges the newest segments, going back while the next older one is less than four times what is being merged:
   * a live index adds tiny segments, and merging them into each other (not into the big one) keeps each merge cheap
   * while sizes stay geometric, so a query still visits few segments.
   */
  private mergeTail(termCount: number, alive: (doc: number) => boolean): void {
    const size = (i: number): number => this.segments[i].docs.length;
    const first = this.firstInMemory();
    let from = this.segments.length - 2;
    if (from < first) return;
    let total = size(from) + size(from + 1);
    while (from > first && total * 4 > size(from - 1)) total += size(--from);
    const merged = mergeSegments(this.segments.slice(from) as MemorySegment[], termCount, alive);
    this.segments.splice(from, this.segments.length - from, merged);
    if (this.segments.length > MAX_SEGMENTS) this.compact(termCount, alive);
  }

  /**
   * Merges the segments held in memory into one, dropping removed documents. Segments that stay in a snapshot file
   * are never read back into memory for this: the next snapshot writes every segment as one (store/merged-postings.ts).
   */
  compact(termCount: number, alive: (doc: number) => boolean): void {
    const first = this.firstInMemory();
    if (this.segments.length - first < 1) return;
    this.segments.splice(first, this.segments.length - first, mergeSegments(this.segments.slice(first) as MemorySegment[], termCount, alive));
  }

  /** Where the segments held in memory begin (those before stay in a snapshot file). */
  private firstInMemory(): number {
    let i = this.segments.length;
    while (i > 0 && isInMemory(this.segments[i - 1])) i--;
    return i;
  }

  /**
   * Approximate bytes of postings held in memory: the segments in memory and the pending postings (not the pending
   * buffers' room, at most PENDING_CAP triples, which a snapshot does not take).
   */
  get bytes(): number {
    const held = (a: Int32Array | Uint32Array | PagedArray): number => (a instanceof Int32Array || a instanceof Uint32Array ? a.byteLength : 0);
    return this.segments.reduce((n, s) => n + s.offsets.byteLength + held(s.docs) + held(s.freqs), 0) + this.pendingLength * 12;
  }

  /** Bytes of the pending buffers' room (kept between a bulk load's seals, given back after). */
  get bufferBytes(): number {
    return this.pendingTerms.byteLength * 3;
  }
}

/** Segments in age order, so each term's postings stay in document order. */
function mergeSegments(segments: MemorySegment[], termCount: number, alive: (doc: number) => boolean): Segment {
  const offsets = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) {
    let n = 0;
    for (const s of segments) {
      if (t >= s.terms) continue;
      for (let i = s.offsets[t], end = s.offsets[t + 1]; i < end; i++) if (alive(s.docs[i])) n++;
    }
    offsets[t + 1] = offsets[t] + n;
  }
  const docs = new Int32Array(offsets[termCount]);
  const freqs = new Uint32Array(offsets[termCount]);
  let w = 0;
  for (let t = 0; t < termCount; t++) {
    for (const s of segments) {
      if (t >= s.terms) continue;
      for (let i = s.offsets[t], end = s.offsets[t + 1]; i < end; i++) {
        if (!alive(s.docs[i])) continue;
        docs[w] = s.docs[i];
        freqs[w++] = s.freqs[i];
      }
    }
  }
  return { terms: termCount, offsets, docs, freqs };
}

/** The live and dead documents holding a term id, across segments. */
export function docsHolding(segments: readonly Segment[], id: number | undefined): Set<number> {
  const set = new Set<number>();
  if (id === undefined) return set;
  for (const seg of segments) {
    if (id >= seg.terms) continue;
    const { docs, from, to } = termPostings(seg, id);
    for (let k = from; k < to; k++) set.add(docs[k]);
  }
  return set;
}

/** One query alternative's documents, visited with their per-field frequencies, at its IDF. */
export interface Postings {
  idf: number;
  each(visit: (doc: number, t0: number, t1: number, t2: number) => void): void;
}

/** Term `id`'s postings in `segments`, field by field, skipping removed documents (an undefined key). */
export function livePostings(segments: readonly Segment[], id: number, idf: number, keys: readonly (string | undefined)[]): Postings {
  return {
    idf,
    each: (visit) => {
      for (const seg of segments) {
        if (id >= seg.terms) continue;
        const { docs, freqs, from, to } = termPostings(seg, id);
        for (let i = from; i < to; i++) {
          const doc = docs[i];
          if (keys[doc] === undefined) continue;
          const packed = freqs[i];
          visit(doc, packed & 0xff, (packed >>> 8) & 0xfff, packed >>> 20);
        }
      }
    },
  };
}

/**
 * The documents every one of `parts` holds (an identifier's parts apart: `web` and `socket` for `web_socket`), each
 * with the mean of its parts' frequencies, at the IDF of the rarest part.
 */
export function conjoin(parts: Postings[]): Postings | undefined {
  if (!parts.length) return undefined;
  const held = new Map<number, number[]>();
  parts.forEach((p, k) =>
    p.each((doc, t0, t1, t2) => {
      let f = held.get(doc);
      if (!f && k > 0) return;
      if (!f) held.set(doc, (f = [0, 0, 0, 0]));
      if (f[3] !== k) return;
      f[0] += t0;
      f[1] += t1;
      f[2] += t2;
      f[3] = k + 1;
    }),
  );
  const n = parts.length;
  return {
    idf: Math.max(...parts.map((p) => p.idf)),
    each: (visit) => {
      for (const [doc, f] of held) if (f[3] === n) visit(doc, Math.round(f[0] / n), Math.round(f[1] / n), Math.round(f[2] / n));
    },
  };
}
