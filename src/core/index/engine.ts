/**
 * The search index. FlexSearch is the inverted index that finds candidate documents for each term fast; it cannot
 * rank (no term frequency, no IDF), so each document also keeps a compact term vector (term ids with per-field
 * frequencies) and we rank candidates with BM25F over three weighted fields.
 */
import FlexSearch from 'flexsearch';
import { forEachToken } from './tokenize.js';

/** Field order is fixed: topic (title), content (the conversation), messages (tool calls, outputs, thinking, notes). */
export const FIELD_WEIGHTS = [3, 2, 1] as const;
const FIELD_B = [0, 0.75, 0.75];
const K1 = 1.2;
const FIELDS = 3;

export interface DocumentFields {
  topic: string;
  content: string[];
  messages: string[];
}

interface DocVector {
  key: string;
  /** Sorted term ids. */
  terms: Uint32Array;
  /** FIELDS frequencies per term, in the order of `terms`. */
  freqs: Uint16Array;
  lengths: [number, number, number];
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

const splitOnSpace = (s: string): string[] => s.split(' ');

export class SearchIndex {
  private readonly flex = new FlexSearch.Index({ tokenize: 'strict', encode: splitOnSpace, resolution: 1 });
  private readonly dict = new Map<string, number>();
  private readonly df: number[] = [];
  private readonly docs: (DocVector | undefined)[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly totalLengths = [0, 0, 0];
  private free: number[] = [];

  get size(): number {
    return this.byKey.size;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Adds or replaces the document stored under `key`. */
  add(key: string, fields: DocumentFields): void {
    this.remove(key);
    const counts = new Map<string, number[]>();
    const lengths: [number, number, number] = [0, 0, 0];
    const count = (field: number) => (token: string) => {
      let c = counts.get(token);
      if (!c) counts.set(token, (c = [0, 0, 0]));
      if (c[field] < 65535) c[field]++;
      lengths[field]++;
    };
    forEachToken(fields.topic, count(0));
    for (const text of fields.content) forEachToken(text, count(1));
    for (const text of fields.messages) forEachToken(text, count(2));
    const ids: number[] = [];
    for (const term of counts.keys()) {
      let id = this.dict.get(term);
      if (id === undefined) {
        id = this.df.length;
        this.dict.set(term, id);
        this.df.push(0);
      }
      this.df[id]++;
      ids.push(id);
    }
    const order = ids.map((_, i) => i).sort((a, b) => ids[a] - ids[b]);
    const terms = new Uint32Array(order.length);
    const freqs = new Uint16Array(order.length * FIELDS);
    const names = [...counts.keys()];
    order.forEach((from, to) => {
      terms[to] = ids[from];
      const c = counts.get(names[from])!;
      for (let f = 0; f < FIELDS; f++) freqs[to * FIELDS + f] = c[f];
    });
    const doc = this.free.pop() ?? this.docs.length;
    this.docs[doc] = { key, terms, freqs, lengths };
    this.byKey.set(key, doc);
    for (let f = 0; f < FIELDS; f++) this.totalLengths[f] += lengths[f];
    this.flex.add(doc, names.join(' '));
  }

  remove(key: string): void {
    const doc = this.byKey.get(key);
    if (doc === undefined) return;
    const vector = this.docs[doc]!;
    for (const id of vector.terms) this.df[id]--;
    for (let f = 0; f < FIELDS; f++) this.totalLengths[f] -= vector.lengths[f];
    this.flex.remove(doc);
    this.docs[doc] = undefined;
    this.byKey.delete(key);
    this.free.push(doc);
  }

  /** Inverse document frequency of a term (0 for a term no document holds). */
  idf(term: string): number {
    const id = this.dict.get(term);
    const n = this.byKey.size;
    return id === undefined || !this.df[id] ? 0 : Math.log(1 + (n - this.df[id] + 0.5) / (this.df[id] + 0.5));
  }

  /** Frequencies of one term in one document, per field; undefined when absent. */
  private freqsOf(vector: DocVector, termId: number): number | undefined {
    let lo = 0;
    let hi = vector.terms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = vector.terms[mid];
      if (v === termId) return mid;
      if (v < termId) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  private candidates(termIds: (number | undefined)[], terms: string[]): Set<number> {
    const found = new Set<number>();
    const limit = this.docs.length;
    terms.forEach((term, i) => {
      if (termIds[i] === undefined) return;
      for (const id of this.flex.search(term, { limit }) as number[]) found.add(id);
    });
    return found;
  }

  /** Every document matching any of `terms`, with its BM25F score; the caller orders them. */
  score(terms: string[], options: ScoreOptions = {}): Scored[] {
    const n = this.byKey.size;
    if (!n || !terms.length) return [];
    const termIds = terms.map((t) => this.dict.get(t));
    const required = (options.required ?? []).map((t) => this.dict.get(t));
    if (required.some((id) => id === undefined)) return [];
    const excluded = (options.excluded ?? []).map((t) => this.dict.get(t)).filter((id): id is number => id !== undefined);
    const idf = termIds.map((id) => (id === undefined ? 0 : Math.log(1 + (n - this.df[id] + 0.5) / (this.df[id] + 0.5))));
    const maxScore = idf.reduce((a, b) => a + b, 0) * (K1 + 1);
    const avg = this.totalLengths.map((l) => Math.max(1, l / n));
    const results: Scored[] = [];
    for (const doc of this.candidates(termIds, terms)) {
      const vector = this.docs[doc];
      if (!vector) continue;
      if (required.some((id) => this.freqsOf(vector, id!) === undefined)) continue;
      if (excluded.some((id) => this.freqsOf(vector, id) !== undefined)) continue;
      let score = 0;
      let matchCount = 0;
      let matchedTerms = 0;
      for (let i = 0; i < termIds.length; i++) {
        const id = termIds[i];
        if (id === undefined) continue;
        const at = this.freqsOf(vector, id);
        if (at === undefined) continue;
        let tf = 0;
        for (let f = 0; f < FIELDS; f++) {
          const raw = vector.freqs[at * FIELDS + f];
          if (!raw) continue;
          matchCount += raw;
          // Length normalisation only penalises long fields: a short session must not outweigh a title match.
          tf += (FIELD_WEIGHTS[f] * raw) / Math.max(1, 1 - FIELD_B[f] + (FIELD_B[f] * vector.lengths[f]) / avg[f]);
        }
        score += (idf[i] * tf * (K1 + 1)) / (K1 + tf);
        matchedTerms++;
      }
      if (options.accept && !options.accept(vector.key)) continue;
      results.push({ doc, key: vector.key, score, relevance: maxScore > 0 ? Math.min(1, score / maxScore) : 0, matchCount, matchedTerms });
    }
    return results;
  }
}
