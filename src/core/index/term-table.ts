/**
 * The index's term dictionary: each term's id. A restored index's terms stay as the snapshot's bytes (UTF-8, one term
 * a line) with an open-addressing table of their ids, made in one pass over the bytes: a warm start at 10,000 sessions
 * made 120,000 strings and a Map of them before (100-180 ms of the main thread, and the garbage collector's copying of
 * them), where this makes three typed arrays. Terms added since, and stop words (id -1), live in a Map until the next
 * snapshot is written: the index then takes the table the snapshot wrote (`written`), so that a first load holds its
 * terms as bytes (a term costs its UTF-8 bytes and 12-20 bytes of starts and slots, against about 120 bytes in a Map)
 * and the Map starts empty again. The restored terms are decoded to strings only while they are visited, a piece at a
 * time, and not kept: kept, they cost a history whose vocabulary grows hundreds of MB (near spellings keep the few
 * they may be: spellings.ts). A snapshot
 * also keeps the table's layout (where each term starts, and the slots), so a start takes it as it is instead of
 * hashing every term again (`fromLayout`: 30-60 ms of a warm start at 10,000 sessions of the samples' words, seconds at
 * the 6.8 million terms of a growing vocabulary).
 */

/**
 * FNV-1a over UTF-16 code units: what a term hashes to, whether it is a string or restored bytes. A snapshot keeps the
 * slots this placed its terms in (`layout`): another rule needs store/snapshot.ts SNAPSHOT_VERSION raised, so that
 * snapshots laid out by this one are rebuilt rather than looked up by the other.
 */
const OFFSET = 0x811c9dc5;
const PRIME = 0x01000193;

function hashString(term: string): number {
  let h = OFFSET;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), PRIME);
  return h >>> 0;
}

/** The slots of a table of `count` terms: a power of two, at least twice as many (16 at least). */
function slotCount(count: number): number {
  let size = 16;
  while (size < count * 2) size *= 2;
  return size;
}

/** How many bytes of restored terms are decoded at a time while every term is visited. */
const DECODED_BYTES = 1 << 20;

export class TermTable {
  /** Terms added since the restore (ids from `restored` on) and stop words (-1). */
  private readonly added = new Map<string, number>();
  /** The restored terms' bytes and where each starts (`starts[restored]`: one past the end of the last, plus one). */
  private readonly text: Uint8Array;
  private readonly starts: Uint32Array;
  /** Open addressing, linear probing: id + 1 of a restored term; 0 is an empty slot. */
  private readonly slots: Int32Array;
  private readonly restored: number;
  private readonly decoder = new TextDecoder();

  private constructor(text: Uint8Array, starts: Uint32Array, count: number, slots?: Int32Array) {
    this.text = text;
    this.starts = starts;
    this.restored = count;
    if (slots) {
      this.slots = slots;
      return;
    }
    this.slots = new Int32Array(count ? slotCount(count) : 0);
    for (let id = 0; id < count; id++) this.place(id);
  }

  /** An empty table. */
  static empty(): TermTable {
    return new TermTable(new Uint8Array(0), new Uint32Array(1), 0);
  }

  /** The terms of a snapshot's term section: UTF-8, one term a line, in id order. Throws when a term is there twice. */
  static fromText(text: Uint8Array): TermTable {
    if (!text.length) return TermTable.empty();
    let count = 1;
    for (let i = 0; i < text.length; i++) if (text[i] === 10) count++;
    const starts = new Uint32Array(count + 1);
    let n = 1;
    for (let i = 0; i < text.length; i++) if (text[i] === 10) starts[n++] = i + 1;
    starts[count] = text.length + 1;
    return new TermTable(text, starts, count);
  }

  /**
   * The terms of a snapshot's term section with the layout `layout` gave for them. Throws where the layout cannot be
   * theirs (another count of terms, a start that is not after a line's end, a slot naming no term, a term in no slot or
   * in two): the checksums guard the bytes, this the layout's shape (the hashing rule is the snapshot version's).
   * Unchecked (`checked` false: a snapshot as its writer left it), only the sizes are.
   */
  static fromLayout(text: Uint8Array, starts: Uint32Array, slots: Int32Array, checked = true): TermTable {
    const count = starts.length - 1;
    if (!text.length) {
      if (count !== 0 || slots.length) throw new Error("the term table's layout does not fit its terms");
      return TermTable.empty();
    }
    let ok = count >= 1 && starts[0] === 0 && starts[count] === text.length + 1 && slots.length === slotCount(count);
    // (unchecked: the layout this build's writer made, its bytes checksummed; its size alone is checked, so that a
    // lookup always meets an empty slot)
    if (!checked) {
      if (!ok) throw new Error("the term table's layout does not fit its terms");
      return new TermTable(text, starts, count, slots);
    }
    for (let id = 1; ok && id < count; id++) ok = starts[id] > starts[id - 1] && text[starts[id] - 1] === 10;
    // every id in one slot: as many slots taken as terms, and the ids' sum and their squares' sum (modulo 2^32) those of
    // 1 to count, so that any one slot changed is seen; one pass in order (a table of every id seen, written at random:
    // 0.30-0.45 s at 6.8 million terms, 0.12-0.28 s so)
    let placed = 0;
    let sum = 0;
    let squares = 0;
    for (let i = 0; ok && i < slots.length; i++) {
      const slot = slots[i];
      ok = slot >= 0 && slot <= count;
      if (slot > 0) {
        placed++;
        sum += slot;
        squares = (squares + Math.imul(slot, slot)) >>> 0;
      }
    }
    let wantedSquares = 0;
    for (let id = 1; id <= count; id++) wantedSquares = (wantedSquares + Math.imul(id, id)) >>> 0;
    if (!ok || placed !== count || sum !== (count * (count + 1)) / 2 || squares !== wantedSquares)
      throw new Error("the term table's layout does not fit its terms");
    return new TermTable(text, starts, count, slots);
  }

  /**
   * The table a snapshot just wrote for this one's terms (`text` and its layout, made by `fromText`): trusted as made
   * here, not checked as a file's is (`fromLayout`).
   */
  static written(text: Uint8Array, layout: { starts: Uint32Array; slots: Int32Array }): TermTable {
    return TermTable.fromLayout(text, layout.starts, layout.slots, false);
  }

  /**
   * Every term's UTF-8 bytes in id order, one a line (what a snapshot's term section holds), made now: the restored
   * bytes as they are, then the terms added since. `count` is how many terms there are (ids 0 to count - 1).
   */
  bytes(count: number): Uint8Array {
    // (nothing added since the restore: the restored bytes as they are, not a copy)
    if (count === this.restored) return this.text;
    const added: string[] = new Array<string>(count - this.restored);
    // (a line break before every term but the first)
    let bytes = this.restored ? this.text.length : -1;
    for (const [term, id] of this.added) {
      if (id < 0) continue;
      added[id - this.restored] = term;
      bytes += 1 + Buffer.byteLength(term, 'utf8');
    }
    const out = Buffer.allocUnsafe(Math.max(0, bytes));
    let at = 0;
    if (this.restored) {
      out.set(this.text);
      at = this.text.length;
    }
    for (let i = 0; i < added.length; i++) {
      if (added[i] === undefined) throw new Error(`the term table has no term ${this.restored + i}`);
      if (i > 0 || this.restored) out[at++] = 10;
      at += out.write(added[i], at, 'utf8');
    }
    return out;
  }

  /**
   * The layout of `bytes`, this table's own terms as `bytes` gave them: the restored terms keep their starts and, where
   * the table keeps its size, their slots, and only the terms added since are placed (hashing every term again took a
   * snapshot write seconds at millions of terms). The same layout `fromText(bytes)` makes: terms placed in id order.
   */
  layoutOf(bytes: Uint8Array): { starts: Uint32Array; slots: Int32Array } {
    if (!this.restored || bytes.length < this.text.length) return TermTable.fromText(bytes).layout();
    // (the terms added since follow the restored ones' bytes and a line break)
    const from = this.text.length + 1;
    let count = this.restored;
    if (bytes.length > this.text.length) {
      count++;
      for (let i = from; i < bytes.length; i++) if (bytes[i] === 10) count++;
    }
    if (slotCount(count) !== this.slots.length) return TermTable.fromText(bytes).layout();
    if (count === this.restored) return { starts: this.starts, slots: this.slots };
    const starts = new Uint32Array(count + 1);
    starts.set(this.starts.subarray(0, this.restored + 1));
    let n = this.restored + 1;
    for (let i = from; i < bytes.length; i++) if (bytes[i] === 10) starts[n++] = i + 1;
    starts[count] = bytes.length + 1;
    const table = new TermTable(bytes, starts, count, this.slots.slice());
    for (let id = this.restored; id < count; id++) table.place(id);
    return table.layout();
  }

  /**
   * The ids of the terms that contain `part` (stop words left out): found in the restored terms' bytes by a search of
   * them all at once, no term decoded (decoding 6.8 million terms for each identifier asked took a second).
   */
  idsContaining(part: string): number[] {
    const ids: number[] = [];
    const needle = Buffer.from(part, 'utf8');
    if (!needle.length || needle.includes(10)) return ids;
    const bytes = Buffer.from(this.text.buffer, this.text.byteOffset, this.text.length);
    for (let at = this.restored ? bytes.indexOf(needle) : -1; at >= 0; at = bytes.indexOf(needle, at + 1)) {
      // the term the match lies in (no term holds a line break): the last that starts at or before it
      let lo = 0;
      let hi = this.restored - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.starts[mid] <= at) lo = mid;
        else hi = mid - 1;
      }
      if (ids[ids.length - 1] !== lo) ids.push(lo);
    }
    for (const [term, id] of this.added) if (id >= 0 && term.includes(part)) ids.push(id);
    return ids;
  }

  /** Where each restored term starts and the slots: what a snapshot keeps beside the terms (`fromLayout`). */
  layout(): { starts: Uint32Array; slots: Int32Array } {
    return { starts: this.starts, slots: this.slots };
  }

  /** Terms as a list in id order (an index's exported state, in tests and in process). */
  static fromList(terms: readonly string[]): TermTable {
    return terms.length ? TermTable.fromText(Buffer.from(terms.join('\n'), 'utf8')) : TermTable.empty();
  }

  /** Terms held, stop words not counted. */
  get count(): number {
    let n = this.restored;
    for (const id of this.added.values()) if (id >= 0) n++;
    return n;
  }

  /** The id of a term (-1: a stop word met before), or undefined. */
  get(term: string): number | undefined {
    const id = this.added.get(term);
    if (id !== undefined || !this.restored) return id;
    const mask = this.slots.length - 1;
    for (let at = hashString(term) & mask; ; at = (at + 1) & mask) {
      const slot = this.slots[at];
      if (slot === 0) return undefined;
      if (this.holds(slot - 1, term)) return slot - 1;
    }
  }

  /** Records a new term's id (or -1 for a stop word). */
  set(term: string, id: number): void {
    this.added.set(term, id);
  }

  /**
   * Visits every term with its id (stop words left out): the restored ones first, in id order, decoded about a
   * megabyte at a time (the strings are not kept). With `keep`, only the terms it keeps are decoded and visited: it is
   * given the id and the term's UTF-8 bytes (`text[start..end)`, which it must not keep or change).
   */
  forEach(visit: (term: string, id: number) => void, keep?: (id: number, text: Uint8Array, start: number, end: number) => boolean): void {
    if (keep) {
      const bytes = Buffer.from(this.text.buffer, this.text.byteOffset, this.text.length);
      for (let id = 0; id < this.restored; id++) {
        const start = this.starts[id];
        const end = this.starts[id + 1] - 1;
        if (keep(id, this.text, start, end)) visit(bytes.toString('utf8', start, end), id);
      }
      for (const [term, id] of this.added) {
        if (id < 0) continue;
        const own = Buffer.from(term, 'utf8');
        if (keep(id, own, 0, own.length)) visit(term, id);
      }
      return;
    }
    for (let from = 0; from < this.restored;) {
      let to = from + 1;
      while (to < this.restored && this.starts[to + 1] - this.starts[from] <= DECODED_BYTES) to++;
      const strings = this.decoder.decode(this.text.subarray(this.starts[from], this.starts[to] - 1)).split('\n');
      for (let i = 0; i < strings.length; i++) visit(strings[i], from + i);
      from = to;
    }
    for (const [term, id] of this.added) if (id >= 0) visit(term, id);
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    const start = this.starts[id];
    const end = this.starts[id + 1] - 1;
    let h = OFFSET;
    let ascii = true;
    for (let i = start; i < end; i++) {
      const b = this.text[i];
      if (b >= 0x80) {
        ascii = false;
        break;
      }
      h = Math.imul(h ^ b, PRIME);
    }
    const hash = ascii ? h >>> 0 : hashString(this.decoder.decode(this.text.subarray(start, end)));
    let at = hash & mask;
    for (; this.slots[at] !== 0; at = (at + 1) & mask) {
      if (this.sameTerms(this.slots[at] - 1, id)) throw new Error('the term table holds a term twice');
    }
    this.slots[at] = id + 1;
  }

  /** Whether restored term `id` is `term`. */
  private holds(id: number, term: string): boolean {
    const start = this.starts[id];
    const end = this.starts[id + 1] - 1;
    // an ASCII term has as many bytes as characters; a longer byte run may still be a shorter string (UTF-8)
    if (end - start < term.length) return false;
    for (let i = 0; i < term.length; i++) {
      const c = term.charCodeAt(i);
      // (past an ASCII prefix, a byte above 0x7f starts a character above 0x7f: it differs from an ASCII one)
      if (c >= 0x80) return this.decoder.decode(this.text.subarray(start, end)) === term;
      if (this.text[start + i] !== c) return false;
    }
    return end - start === term.length;
  }

  private sameTerms(a: number, b: number): boolean {
    const la = this.starts[a + 1] - this.starts[a];
    if (la !== this.starts[b + 1] - this.starts[b]) return false;
    for (let i = 0; i < la - 1; i++) if (this.text[this.starts[a] + i] !== this.text[this.starts[b] + i]) return false;
    return true;
  }
}
