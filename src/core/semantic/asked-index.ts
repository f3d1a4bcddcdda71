/**
 * What the user asked: a small BM25 index over each session's title and the user's own prompts, every word reduced to
 * its Porter stem. People remember a session by what they asked in it, in their own word forms ("leaking" for "leak",
 * "cached" for "cache"); the full-text index weighs every reply, tool output and file read beside those prompts, and
 * keeps words as written. Fused with the full-text ranking and the semantic leg (answer/hybrid.ts) it found the
 * session meant far more often on the judged set (bench/relevance, tuning split: 0.806 → 0.858 nDCG@10).
 *
 * Memory: a session keeps its distinct stems (at most ASKED_TERMS, 6 bytes each in its bag) and one posting (4 bytes) per stem.
 * Postings are built when searched, in one pass over the bags; sessions added since are read by a linear scan until
 * they are an eighth of the rest; removed sessions are skipped, and dropped when a third are dead.
 */
import { stemmer } from 'stemmer';
import { isPrompt, type Session } from '../model.js';
import { forEachToken } from '../index/tokenize.js';
import type { QuerySlot } from '../index/ranking.js';
import type { Bag } from './lsa.js';

/**
 * Distinct stems a session keeps at most (the first ones met). Not its most frequent ones: a word asked once (a
 * codename, an identifier) is what a search for the session types.
 */
export const ASKED_TERMS = 4_000;
/** Characters of each prompt read (a pasted log is not what was asked). */
const PROMPT_CHARS = 4_000;
const K1 = 1.2;
const B = 0.75;

/** A word's stem (cached: the same words recur in every prompt). */
const stems = new Map<string, string>();
export function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stems.size > 200_000) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

/** A word the asked stems and the semantic bags keep: two characters or more, not a number. */
export const keptWord = (word: string): boolean => word.length > 1 && !/^\d+$/.test(word);

/** The stems of a session's title and prompts with their counts, in the order first met (at most ASKED_TERMS). */
export function askedStems(session: Session): [string, number][] {
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
  for (const t of session.turns) if (isPrompt(t)) count(t.text);
  return [...counts];
}

/** A bag sorted by word id, so that a session's count of a word is found by binary search. */
export function sortedBag(pairs: [number, number][]): Bag {
  pairs.sort((a, b) => a[0] - b[0]);
  return { terms: Uint32Array.from(pairs, ([t]) => t), counts: Uint16Array.from(pairs, ([, n]) => Math.min(n, 65_535)) };
}

function countIn(bag: Bag, term: number): number {
  let lo = 0;
  let hi = bag.terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = bag.terms[mid];
    if (t === term) return bag.counts[mid];
    if (t < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

export class AskedIndex {
  private keys: (string | undefined)[] = [];
  private bags: (Bag | undefined)[] = [];
  private lengths: number[] = [];
  private readonly byKey = new Map<string, number>();
  /** Postings of the documents below `built` (compressed rows: per word id, a range of document numbers). */
  private offsets = new Uint32Array(1);
  private docs = new Int32Array(0);
  private built = 0;
  private totalLength = 0;
  private dead = 0;

  get size(): number {
    return this.byKey.size;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The bags by session (to be written to disk). */
  entries(): [string, Bag][] {
    return [...this.byKey].map(([key, doc]) => [key, this.bags[doc]!]);
  }

  /** Whether session `key` asked every word of `ids`. */
  holdsAll(key: string, ids: number[]): boolean {
    const doc = this.byKey.get(key);
    return doc !== undefined && ids.every((id) => countIn(this.bags[doc]!, id) > 0);
  }

  set(key: string, bag: Bag): void {
    this.remove(key);
    const doc = this.keys.length;
    this.keys.push(key);
    this.bags.push(bag);
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
    this.totalLength -= this.lengths[doc];
    this.keys[doc] = undefined;
    this.bags[doc] = undefined;
    if (++this.dead > 1_000 && this.dead * 3 > this.keys.length) this.compact();
  }

  clear(): void {
    this.keys = [];
    this.bags = [];
    this.lengths = [];
    this.byKey.clear();
    this.offsets = new Uint32Array(1);
    this.docs = new Int32Array(0);
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
    this.index();
    const avg = Math.max(1, this.totalLength / n);
    const scores = new Map<number, number>();
    const held = new Map<number, number>();
    let total = 0;
    for (const slot of slots) {
      let slotIdf = 0;
      const best = new Map<number, number>();
      const seen = new Set<number>();
      for (const { term, weight } of slot.alts) {
        const id = idOf(stemOf(term));
        if (id === undefined || seen.has(id)) continue;
        seen.add(id);
        const holding = this.holding(id);
        if (!holding.length) continue;
        const idf = Math.log(1 + (n - holding.length + 0.5) / (holding.length + 0.5)) * weight;
        slotIdf = Math.max(slotIdf, idf);
        for (const doc of holding) {
          const tf = countIn(this.bags[doc]!, id);
          const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[doc]) / avg));
          if (s > (best.get(doc) ?? 0)) best.set(doc, s);
        }
      }
      for (const [doc, s] of best) {
        scores.set(doc, (scores.get(doc) ?? 0) + s);
        held.set(doc, (held.get(doc) ?? 0) + slotIdf);
      }
      total += slotIdf;
    }
    // a session asking every rare word of the query ahead of a shorter one asking some of them: times the share held
    if (total) for (const [doc, s] of scores) scores.set(doc, (s * held.get(doc)!) / total);
    const out: { key: string; score: number }[] = [];
    for (const [doc, score] of [...scores].sort((a, b) => b[1] - a[1])) {
      const key = this.keys[doc]!;
      if (accept && !accept(key)) continue;
      out.push({ key, score });
      if (out.length === limit) break;
    }
    return out;
  }

  /** The live documents holding word `id`: from the postings, then those added since they were built. */
  private holding(id: number): number[] {
    const out: number[] = [];
    if (id + 1 < this.offsets.length)
      for (let i = this.offsets[id]; i < this.offsets[id + 1]; i++) if (this.keys[this.docs[i]] !== undefined) out.push(this.docs[i]);
    for (let doc = this.built; doc < this.keys.length; doc++) if (this.bags[doc] && countIn(this.bags[doc]!, id)) out.push(doc);
    return out;
  }

  /** Builds the postings again once the documents added since are more than an eighth (a linear scan serves them). */
  private index(): void {
    const pending = this.keys.length - this.built;
    if (pending <= Math.max(64, this.built / 8)) return;
    const bags = this.bags;
    let words = 0;
    // a bag is sorted by word id: its last is its largest
    for (const bag of bags) if (bag?.terms.length) words = Math.max(words, bag.terms[bag.terms.length - 1] + 1);
    const offsets = new Uint32Array(words + 1);
    for (const bag of bags) {
      if (!bag) continue;
      const terms = bag.terms;
      for (let i = 0; i < terms.length; i++) offsets[terms[i] + 1]++;
    }
    for (let t = 0; t < words; t++) offsets[t + 1] += offsets[t];
    const docs = new Int32Array(offsets[words]);
    const next = offsets.slice(0, words);
    for (let doc = 0; doc < bags.length; doc++) {
      const terms = bags[doc]?.terms;
      if (terms) for (let i = 0; i < terms.length; i++) docs[next[terms[i]]++] = doc;
    }
    this.offsets = offsets;
    this.docs = docs;
    this.built = this.keys.length;
  }

  /** Drops removed sessions (renumbering the live ones); the postings are built again when next searched. */
  private compact(): void {
    const live = this.entries();
    this.clear();
    for (const [key, bag] of live) this.set(key, bag);
  }
}
