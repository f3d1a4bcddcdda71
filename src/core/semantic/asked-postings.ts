/**
 * The asked-words index's postings (asked-index.ts), built from its documents' bags a slice of the thread at a time: at
 * 50,000 sessions the build in one go held the thread about 150 ms after a warm start's first search, and a query
 * asked then waited for it. Until the build is done the index answers as between builds (the postings built before,
 * the documents after them scanned). Each document's bag is taken once, in the first pass: one removed meanwhile is
 * in the postings, and skipped as removed ones are.
 */
import type { Bag } from './lsa.js';

/** Per word id, a range of document numbers (`offsets`), with each posting's count of the word. */
export interface Postings {
  offsets: Uint32Array<ArrayBuffer>;
  docs: Int32Array<ArrayBuffer>;
  counts: Uint16Array<ArrayBuffer>;
}

/** Documents handled between two looks at the clock. */
const BETWEEN_LOOKS = 16;

/**
 * Builds the postings of documents 0..`end` (their bags by `bagOf`; undefined: removed), holding the thread at most
 * about `sliceMs` at a time: `later` runs the next slice after what waits; `stale` drops the build (the documents were
 * renumbered); `done` takes the postings.
 */
export function buildPostings(
  end: number,
  bagOf: (doc: number) => Bag | undefined,
  sliceMs: number,
  on: { later: (slice: () => void) => void; stale: () => boolean; done: (postings: Postings) => void },
): void {
  const bags = new Array<Bag | undefined>(end);
  let words = 0;
  let offsets = new Uint32Array(1);
  let docs = new Int32Array(0);
  let counts = new Uint16Array(0);
  let next = new Uint32Array(0);
  // each bag taken (and the largest word id: a bag is sorted by it), each word's postings counted, then placed
  const passes: ((doc: number) => void)[] = [
    (doc) => {
      const bag = (bags[doc] = bagOf(doc));
      if (bag?.terms.length) words = Math.max(words, bag.terms[bag.terms.length - 1] + 1);
    },
    (doc) => {
      const terms = bags[doc]?.terms;
      if (terms) for (let i = 0; i < terms.length; i++) offsets[terms[i] + 1]++;
    },
    (doc) => {
      const bag = bags[doc];
      if (!bag) return;
      for (let i = 0; i < bag.terms.length; i++) {
        const at = next[bag.terms[i]]++;
        docs[at] = doc;
        counts[at] = bag.counts[i];
      }
    },
  ];
  // after the first pass and after the second
  const between = [
    () => (offsets = new Uint32Array(words + 1)),
    () => {
      for (let t = 0; t < words; t++) offsets[t + 1] += offsets[t];
      docs = new Int32Array(offsets[words]);
      counts = new Uint16Array(offsets[words]);
      next = offsets.slice(0, words);
    },
  ];
  let pass = 0;
  let doc = 0;
  const slice = (): void => {
    if (on.stale()) return;
    const started = performance.now();
    for (; pass < passes.length; pass++, doc = 0) {
      while (doc < end) {
        passes[pass](doc++);
        if (doc % BETWEEN_LOOKS === 0 && performance.now() - started >= sliceMs) return on.later(slice);
      }
      between[pass]?.();
    }
    on.done({ offsets, docs, counts });
  };
  slice();
}
