/**
 * The full-text index: our own inverted index whose postings carry per-field term frequencies, ranked with BM25F over
 * three weighted fields. FlexSearch was measured for candidate retrieval here and dropped for it: it keeps no term
 * frequency (so BM25 needs a second structure anyway) and its `add` alone took longer than SQLite FTS5's whole build
 * (docs/ARCHITECTURE.md). FlexSearch serves title prefix search instead (title-index.ts).
 */
import { isStopWord, MAX_TOKEN_LENGTH, ownCopy, scanWords } from './tokenize.js';
import { conjoin, grow, livePostings, packFields, PostingStore, SEAL_THRESHOLD, type Postings } from './postings.js';
import {
  DEFAULT_RANKING,
  fieldFactors,
  uniqueSlots,
  type DocumentFields,
  type QuerySlot,
  type RankingParams,
  type Scored,
  type ScoreOptions,
} from './ranking.js';
import type { IndexState, RestoredState, WrittenArrays } from './state.js';
import type { TermFilter } from './expand.js';
import { SpellingTerms } from './spellings.js';
import { DocTermLists } from './doc-terms.js';
import { TermTable } from './term-table.js';
import { ranksBelow, topK } from './top-k.js';
import { keepHolders, QueryScratch } from './scratch.js';

export { DEFAULT_RANKING, FIELD_WEIGHTS, type DocumentFields, type QuerySlot, type RankingParams, type Scored, type ScoreOptions } from './ranking.js';
export type { ChunkedArray, IndexState, RestoredState, WrittenArrays } from './state.js';

export class SearchIndex {
  private dict = TermTable.empty();
  /** The terms near spellings are looked for among (spellings.ts). */
  private readonly spellings = new SpellingTerms();
  private readonly store = new PostingStore();
  private termCount = 0;
  /** Live documents holding each term (document frequency). */
  private df = new Uint32Array(1024);
  private readonly keys: (string | undefined)[] = [];
  /** Three field lengths per document. */
  private lengths = new Uint32Array(1024);
  /** Tie-break value per document (newer = larger). */
  private recency = new Float64Array(1024);
  /** Every document's term ids, so a removal can lower document frequencies. */
  private docTerms = new DocTermLists();
  /** The snapshot file's arrays are checked once in full, after answering began; settles when done. */
  private verifying: Promise<void> | undefined;
  private verify: (() => Promise<void>) | undefined;
  private closeFile: (() => void) | undefined;
  /** Counts changes, so a snapshot written while none happened can take over the index's arrays. */
  private changes = 0;
  /** Set while restored term lists are read; removals made meanwhile update frequencies once they are in. */
  private readonly byKey = new Map<string, number>();
  private readonly totalLengths = [0, 0, 0];
  private dead = 0;
  /**
   * Per-term, per-field scratch counts for the document being added: 16 bits, saturating (the postings keep 8 and 12
   * bits), made as documents are added (a restored index that only answers has none: 6 bytes a term, 41 MB at 6.8
   * million terms).
   */
  private scratch = new Uint16Array(0);
  /** Per document and field: weight / length normaliser, rebuilt lazily when lengths changed. */
  private fieldFactors: Float64Array = new Float64Array(0);
  private factorsStale = true;
  private readonly perQuery = new QueryScratch();

  constructor(private readonly params: RankingParams = DEFAULT_RANKING) {}

  get size(): number {
    return this.byKey.size;
  }

  /**
   * The index as flat arrays (sealed first). Document frequencies, keys and the list of segments are copied; the other
   * arrays are shared, which is safe because later changes append to them or replace them but never rewrite what is
   * already there. (The list of segments is not such an array: every query seals what was added into a new segment, and
   * merges the newest ones; a snapshot written over the live list failed, or paired postings with the wrong offsets.)
   */
  exportState(): IndexState {
    this.seal();
    const docs = this.keys.length;
    const terms = this.dict.bytes(this.termCount);
    return {
      terms,
      termLayout: this.dict.layoutOf(terms),
      df: this.df.slice(0, this.termCount),
      lengths: this.lengths.subarray(0, docs * 3),
      recency: this.recency.subarray(0, docs),
      ...this.docTerms.state(),
      keys: this.keys.map((k) => k ?? null),
      totalLengths: [...this.totalLengths],
      dead: this.dead,
      segments: [...this.store.segments],
    };
  }

  /** An index holding exactly what `exportState` returned; it can be added to and removed from as usual. */
  static fromState(state: RestoredState, params: RankingParams = DEFAULT_RANKING): SearchIndex {
    const index = new SearchIndex(params);
    index.dict = state.terms instanceof TermTable ? state.terms : TermTable.fromText(state.terms);
    index.termCount = index.dict.count;
    index.df = state.df;
    index.lengths = state.lengths;
    index.recency = state.recency;
    index.docTerms = DocTermLists.from(state.docTerms, state.docTermStart);
    index.closeFile = state.close;
    index.verify = state.verify;
    state.keys.forEach((key, doc) => {
      index.keys.push(key ?? undefined);
      if (key !== null) index.byKey.set(key, doc);
    });
    state.totalLengths.forEach((l, f) => (index.totalLengths[f] = l));
    index.dead = state.dead;
    index.store.segments.push(...state.segments);
    return index;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The id of an indexed term; undefined for unknown terms and stop words. */
  private lookup(term: string): number | undefined {
    const id = this.dict.get(term);
    return id === undefined || id < 0 ? undefined : id;
  }

  private termId(term: string): number {
    let id = this.dict.get(term);
    if (id === undefined && isStopWord(term)) {
      this.dict.set(term, -1);
      return -1;
    }
    if (id === undefined) {
      id = this.termCount++;
      // (a copy: the token is a slice of the document's text, which it would keep alive)
      this.dict.set(ownCopy(term), id);
      this.scratch = grow(this.scratch, id * 3 + 3);
      this.df = grow(this.df, Math.max(1024, id + 1));
    }
    return id;
  }

  /**
   * Counts the tokens of one field into the scratch array. This is the hot loop of indexing: stop words live in the
   * dictionary as -1, so each token costs a hash lookup (two for a term the snapshot restored: term-table.ts).
   */
  private countTokens(text: string, field: number, touched: number[], lengths: number[]): void {
    let n = 0;
    scanWords(
      text.toLowerCase(),
      (token, parts) => {
        if (token.length > MAX_TOKEN_LENGTH) return;
        let id = this.dict.get(token);
        if (id === undefined) id = this.termId(token);
        if (id < 0) return;
        const s = this.scratch;
        const at = id * 3;
        if (s[at] === 0 && s[at + 1] === 0 && s[at + 2] === 0) touched.push(id);
        if (s[at + field] < 0xffff) s[at + field]++;
        if (!parts) n++; // (an identifier whole is not one more word of the field's length)
      },
      true,
    );
    lengths[field] += n;
  }

  /**
   * Settles once every array a snapshot left in its file has been checked (queries are answered before, and check
   * what they read); rejects when one turned out damaged, and the index must then be built again.
   */
  complete(): Promise<void> {
    // started by the first caller (the loader, once answering began) rather than while the snapshot is restored
    this.verifying ??= this.verify?.() ?? Promise.resolve();
    return this.verifying;
  }

  /**
   * After a snapshot was written from this index with no change since (`changesAt`): its arrays come from that file
   * from now on, and the memory they took and the previous file are let go. Returns whether it took them over.
   */
  useSnapshotArrays(changesAt: number, arrays: WrittenArrays): boolean {
    // the file holds the segments as one (store/merged-postings.ts): it replaces them all
    if (changesAt !== this.changes || this.store.pending || arrays.docTerms.length !== this.docTerms.size) {
      arrays.close();
      return false;
    }
    this.store.segments.splice(0, this.store.segments.length, ...arrays.segments);
    // the terms as the file wrote them: bytes in place of the strings of the Map (term-table.ts)
    this.dict = TermTable.written(arrays.terms.text, arrays.terms);
    this.docTerms.moveToDisk(arrays.docTerms);
    this.closeFile?.();
    this.closeFile = arrays.close;
    return true;
  }

  /** How many changes the index has seen (see useSnapshotArrays). */
  get changeCount(): number {
    return this.changes;
  }

  /** Lets the snapshot file go. */
  close(): void {
    this.closeFile?.();
    this.closeFile = undefined;
  }

  /** Adds or replaces the document stored under `key`; `recency` orders equal scores (larger first). */
  add(key: string, fields: DocumentFields, recency = 0): void {
    this.remove(key);
    this.changes++;
    const touched: number[] = [];
    const lengths = [0, 0, 0];
    this.scratch = grow(this.scratch, Math.max(3 * 1024, this.termCount * 3 + 3));
    this.countTokens(fields.topic, 0, touched, lengths);
    for (const text of fields.content) this.countTokens(text, 1, touched, lengths);
    for (const text of fields.messages) this.countTokens(text, 2, touched, lengths);
    const doc = this.keys.length;
    this.keys.push(key);
    this.lengths = grow(this.lengths, Math.max(3 * 1024, doc * 3 + 3));
    this.recency = grow(this.recency, Math.max(1024, doc + 1));
    this.lengths.set(lengths, doc * 3);
    this.recency[doc] = recency;
    const s = this.scratch;
    for (let i = 0; i < touched.length; i++) {
      const id = touched[i];
      this.store.add(id, doc, packFields(s[id * 3], s[id * 3 + 1], s[id * 3 + 2]));
      s[id * 3] = s[id * 3 + 1] = s[id * 3 + 2] = 0;
      this.df[id]++;
    }
    this.docTerms.append(touched);
    this.byKey.set(key, doc);
    for (let f = 0; f < 3; f++) this.totalLengths[f] += lengths[f];
    this.factorsStale = true;
    if (this.store.pending > SEAL_THRESHOLD) this.seal();
  }

  /** Removes a document; its postings are skipped until enough are dead to compact. */
  remove(key: string): void {
    const doc = this.byKey.get(key);
    if (doc === undefined) return;
    // its terms no longer count in document frequencies
    const terms = this.docTerms.of(doc);
    for (let i = 0; i < terms.length; i++) this.df[terms[i]]--;
    this.changes++;
    for (let f = 0; f < 3; f++) this.totalLengths[f] -= this.lengths[doc * 3 + f];
    this.keys[doc] = undefined;
    this.byKey.delete(key);
    this.factorsStale = true;
    if (++this.dead > 1000 && this.dead > this.byKey.size) {
      this.seal();
      this.store.compact(this.termCount, this.isAlive);
      this.dead = 0;
    }
  }

  private readonly isAlive = (doc: number): boolean => this.keys[doc] !== undefined;

  /** Makes everything added so far searchable as segments; queries call it, and a bulk load may call it once at the end. */
  seal(): void {
    if (this.store.pending) this.changes++;
    this.store.seal(this.termCount, this.isAlive);
  }

  /** Bytes of postings held (for progress and benchmarks). */
  get postingBytes(): number {
    return this.store.bytes + this.docTerms.bytes;
  }

  private idfOf(id: number): number {
    const n = this.byKey.size;
    const df = this.df[id];
    return df > 0 ? Math.log(1 + (n - df + 0.5) / (df + 0.5)) : 0;
  }

  /** Documents holding a term (0 for unknown terms and stop words). */
  docFrequency(term: string): number {
    const id = this.lookup(term);
    return id === undefined ? 0 : this.df[id];
  }

  /** The keys of the documents holding a term, or a longer one that contains it (`simplesendwithretries`). */
  holdersWithin(term: string): Set<string> {
    const keys = new Set<string>();
    for (const id of this.dict.idsContaining(term))
      if (this.df[id]) livePostings(this.store.segments, id, this.idfOf(id), this.keys).each((doc) => keys.add(this.keys[doc]!));
    return keys;
  }

  /** Every term some document holds, with its document frequency (near spellings are looked for among them). */
  forEachTerm(visit: (term: string, df: number) => void, filter: TermFilter = {}): void {
    const { minDf = 1, minLength = 0, maxLength = Infinity, lettersOnly = false } = filter;
    const seen = (term: string, id: number): void => {
      if (this.df[id] >= minDf && term.length >= minLength && term.length <= maxLength) visit(term, this.df[id]);
    };
    if (lettersOnly && minDf >= 2) return this.spellings.visit(this.dict, this.df, this.changes, minLength, maxLength, seen);
    // (a term of n characters has n to 4n bytes in UTF-8: the bytes rule out what cannot fit before it is decoded)
    this.dict.forEach(seen, (id, _text, start, end) => this.df[id] >= minDf && end - start >= minLength && end - start <= 4 * maxLength);
  }

  /** Inverse document frequency of a term (0 for a term no document holds). */
  idf(term: string): number {
    const id = this.lookup(term);
    return id === undefined ? 0 : this.idfOf(id);
  }

  /** Every document's field factors (ranking.ts fieldFactors), once lengths changed. */
  private refreshFactors(): void {
    if (!this.factorsStale) return;
    this.fieldFactors = fieldFactors(this.lengths, this.keys.length, this.totalLengths, this.byKey.size, this.params, this.fieldFactors);
    this.factorsStale = false;
  }

  private ensureBuffers(): void {
    this.refreshFactors();
    this.perQuery.ensure(this.keys.length);
  }

  /**
   * The documents matching any of the query's slots, best first (BM25F score, then recency). A slot is a word with its
   * alternatives (other forms, near spellings), each with a weight: a document scores its best alternative once. How
   * many of the slots a document holds, weighted by their IDF, is multiplied in (`coordination`).
   */
  score(query: (string | QuerySlot)[], options: ScoreOptions = {}): Scored[] {
    const n = this.byKey.size;
    const none = (): Scored[] => (options.counted?.(0), []);
    if (!n || !query.length) return none();
    const requiredIds = (options.required ?? []).map((t) => this.lookup(t));
    if (requiredIds.some((id) => id === undefined || !this.df[id])) return none();
    this.seal();
    this.ensureBuffers();
    const { k1, coordination } = this.params;
    const factors = this.fieldFactors;
    const { scores, matches, slotsHeld, heldSlots, touched, best, cover } = this.perQuery;
    let touchedCount = 0;
    let maxScore = 0;
    let totalWeight = 0;
    const slotTouched: number[] = [];
    const slots = uniqueSlots(query);
    for (let s = 0; s < slots.length; s++) {
      const slot = slots[s];
      const bit = s < 32 ? 1 << s : 0;
      let slotMax = 0;
      for (const alt of slot.alts) {
        const postings = alt.all ? this.conjunction(alt.all, options.idf) : this.postingsOf(alt.term, options.idf);
        if (!postings) continue;
        const idf = postings.idf * alt.weight;
        slotMax = Math.max(slotMax, idf);
        postings.each((doc, t0, t1, t2) => {
          const tf = t0 * factors[doc * 3] + t1 * factors[doc * 3 + 1] + t2 * factors[doc * 3 + 2];
          if (slotsHeld[doc] === 0 && matches[doc] === 0) {
            touched[touchedCount++] = doc;
            scores[doc] = 0;
            cover[doc] = 0;
          }
          if (best[doc] === 0) slotTouched.push(doc);
          best[doc] = Math.max(best[doc], (idf * tf * (k1 + 1)) / (k1 + tf));
          matches[doc] += t0 + t1 + t2;
        });
      }
      if (!slotMax) continue;
      maxScore += slotMax * (k1 + 1);
      totalWeight += slotMax;
      for (const doc of slotTouched) {
        scores[doc] += best[doc];
        cover[doc] += slotMax;
        slotsHeld[doc]++;
        heldSlots[doc] |= bit;
        best[doc] = 0;
      }
      slotTouched.length = 0;
    }
    if (coordination > 0 && totalWeight > 0) {
      for (let i = 0; i < touchedCount; i++) scores[touched[i]] *= Math.pow(cover[touched[i]] / totalWeight, coordination);
    }
    const candidates = this.filterCandidates(touched, touchedCount, requiredIds as number[], options);
    options.counted?.(candidates.count);
    const ordered = topK(candidates.items, candidates.count, options.limit ?? candidates.count, scores, this.recency);
    const hit = (doc: number): Scored => ({
      doc,
      key: this.keys[doc]!,
      score: scores[doc],
      relevance: maxScore > 0 ? Math.min(1, scores[doc] / maxScore) : 0,
      matchCount: matches[doc],
      matchedTerms: slotsHeld[doc],
      held: heldSlots[doc],
    });
    const results = ordered.map(hit);
    if (options.alsoRank?.size && options.limit !== undefined && candidates.count > ordered.length) {
      const asked = [...options.alsoRank].map((key) => this.byKey.get(key));
      for (const [doc, rank] of ranksBelow(candidates.items, candidates.count, ordered, asked, scores, this.recency)) results.push({ ...hit(doc), rank });
    }
    for (let i = 0; i < touchedCount; i++) slotsHeld[touched[i]] = matches[touched[i]] = heldSlots[touched[i]] = 0;
    return results;
  }

  /** A term's live postings with its IDF, field by field; undefined when no document holds it. */
  private postingsOf(term: string, idfOf?: (term: string) => number | undefined): Postings | undefined {
    const id = this.lookup(term);
    if (id === undefined || !this.df[id]) return undefined;
    return livePostings(this.store.segments, id, idfOf?.(term) ?? this.idfOf(id), this.keys);
  }

  /** The documents holding every one of `terms` (an identifier's parts apart), as one alternative. */
  private conjunction(terms: string[], idfOf?: (term: string) => number | undefined): Postings | undefined {
    const parts = terms.map((t) => this.postingsOf(t, idfOf));
    return parts.every((p) => p !== undefined) ? conjoin(parts as Postings[]) : undefined;
  }

  /** Drops candidates that hold an excluded term, miss a required one, or fail `accept`. */
  private filterCandidates(touched: Int32Array, count: number, requiredIds: number[], options: ScoreOptions): { items: Int32Array; count: number } {
    if (!requiredIds.length && !options.excluded?.length && !options.accept) return { items: touched, count };
    const excluded = (options.excluded ?? []).map((t) => this.lookup(t));
    return keepHolders(this.store.segments, this.keys, touched, count, requiredIds, excluded, options.accept);
  }
}
