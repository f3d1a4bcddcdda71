/**
 * What the user asked: a small BM25 index over each session's title and the user's own prompts, every word reduced to
 * its Porter stem. People remember a session by what they asked in it, in their own word forms ("leaking" for "leak",
 * "cached" for "cache"); the full-text index weighs every reply, tool output and file read beside those prompts, and
 * keeps words as written. Fused with the full-text ranking and the semantic leg (answer/hybrid.ts) it found the
 * session meant far more often on the judged set (bench/relevance, tuning split: 0.806 → 0.858 nDCG@10).
 *
 * Memory: a session keeps its distinct stems (at most ASKED_TERMS, 6 bytes each in its bag) and one posting (4 bytes, and
 * 2 for its count) per stem.
 * Postings are built from the bags a moment after a search, a slice of the thread at a time (asked-postings.ts; the
 * search, and those until the build is done, read the sessions not in them by a linear scan); sessions added since are
 * read by that scan until they are an eighth of the rest; removed sessions are skipped, and dropped when a third are
 * dead.
 */
import { stemmer } from 'stemmer';
import { isPrompt, type Session, type Turn } from '../model.js';
import { forEachToken, ownCopy } from '../index/tokenize.js';
import type { QuerySlot } from '../index/ranking.js';
import type { Bag } from './lsa.js';
import { bagAt, packBags, type BagRows } from './rows.js';
import { buildPostings } from './asked-postings.js';

/**
 * Distinct stems a session keeps at most (the first ones met). Not its most frequent ones: a word asked once (a
 * codename, an identifier) is what a search for the session types.
 */
export const ASKED_TERMS = 4_000;
/** Characters of each prompt read (a pasted log is not what was asked). */
const PROMPT_CHARS = 4_000;
const K1 = 1.2;
const B = 0.75;
/** How long after a search the postings found due are built (see indexSoon). */
const BUILD_AFTER_MS = 250;
/** The longest the build of the postings holds the thread at a time (see index). */
const BUILD_SLICE_MS = 8;

/** A word's stem (cached: the same words recur in every prompt). */
const stems = new Map<string, string>();
export function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stems.size > 200_000) stems.clear();
    // (copies: the word is a slice of a prompt, which a cached key would keep alive)
    stem = ownCopy(stem);
    stems.set(ownCopy(word), stem);
  }
  return stem;
}

/** A word the asked stems and the semantic bags keep: two characters or more, not a number. */
export const keptWord = (word: string): boolean => word.length > 1 && !/^\d+$/.test(word);

/** The stems of a session's title and prompts with their counts, in the order first met (at most ASKED_TERMS). */
export function askedStems(session: Pick<Session, 'topic'>, turns: readonly Turn[]): [string, number][] {
  const counts = new Map<string, number>();
  const count = (text: string): void =>
    forEachToken(text.slice(0, PROMPT_CHARS), (t) => {
      if (!keptWord(t)) return;
      const s = stemOf(t);
      const n = counts.get(s);
      if (n !== undefined) counts.set(s, n + 1);
      else if (counts.size < ASKED_TERMS) counts.set(s, 1);
    });
  count(session.topic);
  for (const t of turns) if (isPrompt(t)) count(t.text);
  return [...counts];
}

/** A bag sorted by word id, so that a session's count of a word is found by binary search. */
export function sortedBag(pairs: [number, number][]): Bag {
  pairs.sort((a, b) => a[0] - b[0]);
  return { terms: Uint32Array.from(pairs, ([t]) => t), counts: Uint16Array.from(pairs, ([, n]) => Math.min(n, 65_535)) };
}

function countIn(bag: Bag, term: number): number {
  return countBetween(bag.terms, bag.counts, 0, bag.terms.length, term);
}

/** `term`'s count among the sorted `terms[from .. to)` (a bag, or a row of restored bags read in place), or 0. */
function countBetween(terms: Uint32Array, counts: Uint16Array, from: number, to: number, term: number): number {
  let lo = from;
  let hi = to - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = terms[mid];
    if (t === term) return counts[mid];
    if (t < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

type Ranked = { doc: number; order: number; score: number };

/**
 * The best `limit` of `ranked` that `accept` takes, highest score first, then the first scored: the best `limit` are
 * selected and sorted, and only where `accept` turns some down is the rest sorted too.
 */
function bestFirst(ranked: Ranked[], limit: number, accept?: (doc: number) => boolean): Ranked[] {
  const byScore = (a: Ranked, b: Ranked): number => b.score - a.score || a.order - b.order;
  const take = (sorted: Ranked[]): Ranked[] => (accept ? sorted.filter((r) => accept(r.doc)) : sorted).slice(0, limit);
  if (ranked.length <= limit) return take(ranked.sort(byScore));
  // (the order is total, score then first scored: the heap's best `limit` are the sort's first `limit`)
  const top = selectTop(ranked, limit, byScore);
  const chosen = take(top);
  return chosen.length === limit ? chosen : take(ranked.sort(byScore));
}

/** The best `k` of `items` by `compare`, sorted (a heap of k: O(n log k)). */
function selectTop<T>(items: T[], k: number, compare: (a: T, b: T) => number): T[] {
  const heap: T[] = [];
  const worse = (a: T, b: T): boolean => compare(a, b) > 0;
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let at = heap.length - 1; at > 0;) {
        const parent = (at - 1) >> 1;
        if (!worse(heap[at], heap[parent])) break;
        [heap[at], heap[parent]] = [heap[parent], heap[at]];
        at = parent;
      }
    } else if (worse(heap[0], item)) {
      heap[0] = item;
      for (let at = 0; ;) {
        const l = 2 * at + 1;
        const r = l + 1;
        let worst = at;
        if (l < k && worse(heap[l], heap[worst])) worst = l;
        if (r < k && worse(heap[r], heap[worst])) worst = r;
        if (worst === at) break;
        [heap[at], heap[worst]] = [heap[worst], heap[at]];
        at = worst;
      }
    }
  }
  return heap.sort(compare);
}

export class AskedIndex {
  private keys: (string | undefined)[] = [];
  /** Bags set since the restore (a restored document's is read from `restored` when needed: see bag()). */
  private bags: (Bag | undefined)[] = [];
  /** The rows read from the file: the first documents' bags, while those documents live. */
  private restored: BagRows | undefined;
  /** Whether the documents are still exactly the rows restored (none removed or added since). */
  private asRestored = false;
  private lengths: number[] = [];
  private readonly byKey = new Map<string, number>();
  /** Postings of the documents below `built` (compressed rows: per word id, a range of document numbers). */
  private offsets = new Uint32Array(1);
  private docs = new Int32Array(0);
  /** Each posting's count of its word (as its bag holds it): read in order, not looked up in a bag per document. */
  private counts = new Uint16Array(0);
  private built = 0;
  /** The build of the postings due, or its next slice (indexSoon, index). */
  private building: ReturnType<typeof setTimeout> | undefined;
  /** Told apart from the documents' numbering that a build began with: a clear or a compaction renumbers them. */
  private numbering = 0;
  private totalLength = 0;
  private dead = 0;
  private perSearch = { scores: new Float64Array(0), held: new Float64Array(0), best: new Float64Array(0) };

  /**
   * `buildAfterMs`: how long after a search the postings it found due are built; `sliceMs`: the longest a slice of the
   * build holds the thread (a test's own, shorter: 0, a slice of 16 documents).
   */
  constructor(
    private readonly buildAfterMs = BUILD_AFTER_MS,
    private readonly sliceMs = BUILD_SLICE_MS,
  ) {}

  get size(): number {
    return this.byKey.size;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The bags by session, in the order set (to be written to disk). */
  entries(): [string, Bag][] {
    return [...this.byKey].map(([key, doc]) => [key, this.bag(doc)!]);
  }

  /** The bags as rows, to be written to disk: those restored as they are when nothing changed since. */
  toRows(): BagRows {
    return this.asRestored && this.restored ? this.restored : packBags(this.entries());
  }

  /**
   * Starts from rows read from the file, keeping the sessions `keep` accepts (in place of anything held). A document's
   * bag is made when read; the postings are built by the first search that needs them, as after any load.
   */
  restore(rows: BagRows, keep: (key: string) => boolean): void {
    this.clear();
    this.restored = rows;
    this.bags = new Array<Bag | undefined>(rows.ids.length).fill(undefined);
    for (let doc = 0; doc < rows.ids.length; doc++) {
      const key = rows.ids[doc];
      let length = 0;
      for (let p = rows.starts[doc]; p < rows.starts[doc + 1]; p++) length += rows.counts[p];
      this.lengths.push(length);
      if (keep(key) && !this.byKey.has(key)) {
        this.keys.push(key);
        this.byKey.set(key, doc);
        this.totalLength += length;
      } else {
        this.keys.push(undefined);
        this.dead++;
      }
    }
    this.asRestored = this.dead === 0;
  }

  /** Document `doc`'s bag (undefined: removed). */
  private bag(doc: number): Bag | undefined {
    if (this.keys[doc] === undefined) return undefined;
    return this.bags[doc] ?? (this.restored && doc < this.restored.ids.length ? bagAt(this.restored, doc) : undefined);
  }

  /** Whether session `key` asked every word of `ids`. */
  holdsAll(key: string, ids: number[]): boolean {
    const doc = this.byKey.get(key);
    const bag = doc === undefined ? undefined : this.bag(doc);
    return bag !== undefined && ids.every((id) => countIn(bag, id) > 0);
  }

  set(key: string, bag: Bag): void {
    this.remove(key);
    this.asRestored = false;
    const doc = this.keys.length;
    this.keys.push(key);
    this.bags[doc] = bag;
    let length = 0;
    for (let p = 0; p < bag.counts.length; p++) length += bag.counts[p];
    this.lengths.push(length);
    this.totalLength += length;
    this.byKey.set(key, doc);
  }

  remove(key: string): void {
    const doc = this.byKey.get(key);
    if (doc === undefined) return;
    this.byKey.delete(key);
    this.asRestored = false;
    this.totalLength -= this.lengths[doc];
    this.keys[doc] = undefined;
    this.bags[doc] = undefined;
    if (++this.dead > 1_000 && this.dead * 3 > this.keys.length) this.compact();
  }

  clear(): void {
    clearTimeout(this.building);
    this.building = undefined;
    this.numbering++;
    this.keys = [];
    this.bags = [];
    this.restored = undefined;
    this.asRestored = false;
    this.lengths = [];
    this.byKey.clear();
    this.offsets = new Uint32Array(1);
    this.docs = new Int32Array(0);
    this.counts = new Uint16Array(0);
    this.built = 0;
    this.totalLength = 0;
    this.dead = 0;
  }

  /**
   * Sessions by BM25 over what was asked, best first (at most `limit`, only those `accept` takes). Each slot scores its
   * best alternative once, at the alternative's weight; `idOf` maps a stem to its word id (undefined: no session has it).
   */
  search(slots: QuerySlot[], idOf: (stem: string) => number | undefined, limit: number, accept?: (key: string) => boolean): { key: string; score: number }[] {
    const n = this.byKey.size;
    if (!n) return [];
    this.indexSoon();
    const avg = Math.max(1, this.totalLength / n);
    // per document: its score, the weight of the slots it holds, its best in the slot being read (typed arrays, reset
    // after each search); the documents in the order first scored, which orders equal scores
    const { scores, held, best } = this.scratch();
    const touched: number[] = [];
    const inSlot: number[] = [];
    let total = 0;
    for (const slot of slots) {
      let slotIdf = 0;
      const seen = new Set<number>();
      for (const { term, weight } of slot.alts) {
        const id = idOf(stemOf(term));
        if (id === undefined || seen.has(id)) continue;
        seen.add(id);
        const holding = this.holding(id);
        if (!holding.docs.length) continue;
        const df = holding.docs.length;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * weight;
        slotIdf = Math.max(slotIdf, idf);
        for (let p = 0; p < df; p++) {
          const doc = holding.docs[p];
          const tf = holding.counts[p];
          const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[doc]) / avg));
          if (s <= best[doc]) continue;
          if (best[doc] === 0) inSlot.push(doc);
          best[doc] = s;
        }
      }
      for (const doc of inSlot) {
        if (held[doc] === 0 && scores[doc] === 0) touched.push(doc);
        scores[doc] += best[doc];
        held[doc] += slotIdf;
        best[doc] = 0;
      }
      inSlot.length = 0;
      total += slotIdf;
    }
    // a session asking every rare word of the query ahead of a shorter one asking some of them: times the share held
    const score = (doc: number): number => (total ? (scores[doc] * held[doc]) / total : scores[doc]);
    const ranked = touched.map((doc, order) => ({ doc, order, score: score(doc) }));
    for (const doc of touched) scores[doc] = held[doc] = 0;
    const out: { key: string; score: number }[] = [];
    for (const { doc, score } of bestFirst(ranked, limit, accept && ((doc) => accept(this.keys[doc]!)))) out.push({ key: this.keys[doc]!, score });
    return out;
  }

  /** Per-document arrays for a search, as long as the documents (zero between searches). */
  private scratch(): { scores: Float64Array; held: Float64Array; best: Float64Array } {
    if (this.perSearch.scores.length < this.keys.length) {
      const size = Math.max(1024, this.keys.length * 2);
      this.perSearch = { scores: new Float64Array(size), held: new Float64Array(size), best: new Float64Array(size) };
    }
    return this.perSearch;
  }

  /** The live documents holding word `id` and their counts of it: from the postings, then those added since they were built. */
  private holding(id: number): { docs: number[]; counts: number[] } {
    const docs: number[] = [];
    const counts: number[] = [];
    if (id + 1 < this.offsets.length)
      for (let i = this.offsets[id]; i < this.offsets[id + 1]; i++)
        if (this.keys[this.docs[i]] !== undefined) {
          docs.push(this.docs[i]);
          counts.push(this.counts[i]);
        }
    // (a restored document's row is searched where it lies: a view of each of 10,000 bags per word took most of a first
    // search after a warm start)
    const rows = this.restored;
    for (let doc = this.built; doc < this.keys.length; doc++) {
      if (this.keys[doc] === undefined) continue;
      const own = this.bags[doc];
      const n = own ? countIn(own, id) : rows && doc < rows.ids.length ? countBetween(rows.terms, rows.counts, rows.starts[doc], rows.starts[doc + 1], id) : 0;
      if (n) {
        docs.push(doc);
        counts.push(n);
      }
    }
    return { docs, counts };
  }

  /**
   * Builds the postings again, once the documents added since are more than an eighth, a moment after the search that
   * found it due: that search and those in the moment read them by a linear scan (a bag's count of each word, by binary
   * search), which gives the same documents in the same order. A restored library's first answer does not wait for the
   * build (73 ms at 10,000 sessions, against a few ms to scan for a query's words): a timer of no delay, set during a
   * first search of 100 ms and more, ran before the answer was sent.
   */
  private indexSoon(): void {
    if (this.building || !this.due) return;
    this.building = this.later(() => this.index(), this.buildAfterMs);
  }

  private later(run: () => void, ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(run, ms);
    timer.unref?.();
    return timer;
  }

  /** Whether the documents added since the postings were built are more than an eighth (and more than 64). */
  private get due(): boolean {
    return this.keys.length - this.built > Math.max(64, this.built / 8);
  }

  /** Builds the postings of the documents so far, a slice at a time (asked-postings.ts); a clear or compaction drops it. */
  private index(): void {
    if (!this.due) return void (this.building = undefined);
    const numbering = this.numbering;
    const end = this.keys.length;
    buildPostings(end, (doc) => this.bag(doc), this.sliceMs, {
      stale: () => numbering !== this.numbering,
      later: (slice) => void (this.building = this.later(slice, 0)),
      done: ({ offsets, docs, counts }) => {
        this.offsets = offsets;
        this.docs = docs;
        this.counts = counts;
        this.built = end;
        this.building = undefined;
      },
    });
  }

  /** Drops removed sessions (renumbering the live ones); the postings are built again when next searched. */
  private compact(): void {
    const live = this.entries();
    this.clear();
    for (const [key, bag] of live) this.set(key, bag);
  }
}
