/**
 * The full-text index: our own inverted index whose postings carry per-field term frequencies, ranked with BM25F over
 * three weighted fields. FlexSearch was measured for candidate retrieval here and dropped for it: it keeps no term
 * frequency (so BM25 needs a second structure anyway) and its `add` alone took 4× longer than SQLite FTS5's whole
 * build (docs/BENCHMARKS.md). FlexSearch serves title prefix search instead (title-index.ts).
 */
import { forEachToken } from './tokenize.js';

/** Field order is fixed: topic (title), content (the conversation), messages (tool calls, outputs, thinking, notes). */
export const FIELD_WEIGHTS = [3, 2, 1] as const;
const FIELD_B = [0, 0.75, 0.75];
const K1 = 1.2;
const FIELD_SHIFT = [1, 0x10000, 0x100000000];
const FIELD_MAX = 0xffff;

export interface DocumentFields {
  topic: string;
  content: string[];
  messages: string[];
}

/** A growable list of (doc, packed frequencies) pairs for one term. */
interface Postings {
  docs: Int32Array;
  freqs: Float64Array;
  length: number;
}

export interface Scored {
  doc: number;
  key: string;
  score: number;
  /** 0–1: the share of the query's weight this document satisfies. */
  relevance: number;
  matchCount: number;
  matchedTerms: number;
}

export interface ScoreOptions {
  /** Terms that must all be present (a phrase's words). */
  required?: string[];
  excluded?: string[];
  /** Extra test on a candidate (filters, phrases); called after the term tests. */
  accept?: (key: string) => boolean;
}

const unpack = (packed: number, field: number): number => Math.floor(packed / FIELD_SHIFT[field]) % 0x10000;

export class SearchIndex {
  private readonly dict = new Map<string, number>();
  private readonly postings: Postings[] = [];
  private readonly df: number[] = [];
  private readonly keys: (string | undefined)[] = [];
  private readonly lengths: number[] = [];
  private readonly termsOf: (Uint32Array | undefined)[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly totalLengths = [0, 0, 0];
  private dead = 0;

  get size(): number {
    return this.byKey.size;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Adds or replaces the document stored under `key`. */
  add(key: string, fields: DocumentFields): void {
    this.remove(key);
    const counts = new Map<string, number>();
    const lengths = [0, 0, 0];
    const count = (field: number) => (token: string) => {
      const c = counts.get(token) ?? 0;
      if (unpack(c, field) < FIELD_MAX) counts.set(token, c + FIELD_SHIFT[field]);
      lengths[field]++;
    };
    forEachToken(fields.topic, count(0));
    for (const text of fields.content) forEachToken(text, count(1));
    for (const text of fields.messages) forEachToken(text, count(2));
    const doc = this.keys.length;
    this.keys.push(key);
    this.lengths.push(lengths[0], lengths[1], lengths[2]);
    const ids = new Uint32Array(counts.size);
    let i = 0;
    for (const [term, packed] of counts) {
      let id = this.dict.get(term);
      if (id === undefined) {
        id = this.postings.length;
        this.dict.set(term, id);
        this.postings.push({ docs: new Int32Array(4), freqs: new Float64Array(4), length: 0 });
        this.df.push(0);
      }
      const p = this.postings[id];
      if (p.length === p.docs.length) {
        const docs = new Int32Array(p.length * 2);
        docs.set(p.docs);
        const freqs = new Float64Array(p.length * 2);
        freqs.set(p.freqs);
        p.docs = docs;
        p.freqs = freqs;
      }
      p.docs[p.length] = doc;
      p.freqs[p.length] = packed;
      p.length++;
      this.df[id]++;
      ids[i++] = id;
    }
    this.termsOf.push(ids);
    this.byKey.set(key, doc);
    for (let f = 0; f < 3; f++) this.totalLengths[f] += lengths[f];
  }

  /** Removes a document; its postings are skipped until the next compaction. */
  remove(key: string): void {
    const doc = this.byKey.get(key);
    if (doc === undefined) return;
    for (const id of this.termsOf[doc]!) this.df[id]--;
    for (let f = 0; f < 3; f++) this.totalLengths[f] -= this.lengths[doc * 3 + f];
    this.keys[doc] = undefined;
    this.termsOf[doc] = undefined;
    this.byKey.delete(key);
    if (++this.dead > 1000 && this.dead > this.byKey.size) this.compact();
  }

  private compact(): void {
    const alive = this.keys.map((k) => k !== undefined);
    for (const p of this.postings) {
      let w = 0;
      for (let r = 0; r < p.length; r++) {
        if (!alive[p.docs[r]]) continue;
        p.docs[w] = p.docs[r];
        p.freqs[w++] = p.freqs[r];
      }
      p.length = w;
    }
    this.dead = 0;
  }

  /** Inverse document frequency of a term (0 for a term no document holds). */
  idf(term: string): number {
    const id = this.dict.get(term);
    const n = this.byKey.size;
    return id === undefined || !this.df[id] ? 0 : Math.log(1 + (n - this.df[id] + 0.5) / (this.df[id] + 0.5));
  }

  private docsWith(term: string): Set<number> {
    const p = this.postings[this.dict.get(term) ?? -1];
    const set = new Set<number>();
    if (p) for (let i = 0; i < p.length; i++) set.add(p.docs[i]);
    return set;
  }

  /** Every document matching any of `terms`, with its BM25F score; the caller orders them. */
  score(terms: string[], options: ScoreOptions = {}): Scored[] {
    const n = this.byKey.size;
    if (!n || !terms.length) return [];
    const required = options.required ?? [];
    if (required.some((t) => !this.dict.has(t))) return [];
    const requiredSets = required.map((t) => this.docsWith(t));
    const excluded = (options.excluded ?? []).map((t) => this.docsWith(t));
    const avg = this.totalLengths.map((l) => Math.max(1, l / n));
    const scores = new Map<number, { score: number; matchCount: number; matchedTerms: number }>();
    let maxScore = 0;
    for (const term of new Set(terms)) {
      const id = this.dict.get(term);
      if (id === undefined || !this.df[id]) continue;
      const idf = Math.log(1 + (n - this.df[id] + 0.5) / (this.df[id] + 0.5));
      maxScore += idf * (K1 + 1);
      const p = this.postings[id];
      for (let i = 0; i < p.length; i++) {
        const doc = p.docs[i];
        if (this.keys[doc] === undefined) continue;
        let tf = 0;
        let matches = 0;
        for (let f = 0; f < 3; f++) {
          const raw = unpack(p.freqs[i], f);
          if (!raw) continue;
          matches += raw;
          // Length normalisation only penalises long fields: a short session must not outweigh a title match.
          tf += (FIELD_WEIGHTS[f] * raw) / Math.max(1, 1 - FIELD_B[f] + (FIELD_B[f] * this.lengths[doc * 3 + f]) / avg[f]);
        }
        const s = scores.get(doc);
        const add = (idf * tf * (K1 + 1)) / (K1 + tf);
        if (s) {
          s.score += add;
          s.matchCount += matches;
          s.matchedTerms++;
        } else scores.set(doc, { score: add, matchCount: matches, matchedTerms: 1 });
      }
    }
    const results: Scored[] = [];
    for (const [doc, s] of scores) {
      if (requiredSets.some((set) => !set.has(doc)) || excluded.some((set) => set.has(doc))) continue;
      const key = this.keys[doc]!;
      if (options.accept && !options.accept(key)) continue;
      results.push({ doc, key, score: s.score, relevance: maxScore > 0 ? Math.min(1, s.score / maxScore) : 0, matchCount: s.matchCount, matchedTerms: s.matchedTerms });
    }
    return results;
  }
}
