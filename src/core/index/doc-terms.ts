/**
 * The term ids of every document, concatenated, so that removing a document can lower the document frequencies of
 * its terms. Lists of documents restored from a snapshot (positions below `base`) stay in its file; lists of
 * documents added since are held in memory after them.
 */
import type { PagedArray } from './postings.js';
import type { ChunkedArray } from './state.js';

export class DocTermLists {
  private memory: Uint32Array = new Uint32Array(1 << 16);
  private length = 0;
  private disk: PagedArray | undefined;
  private base = 0;
  /** Where each document's list starts. */
  private starts: number[] = [];

  /** Lists as a snapshot handed them over (in memory, or left in its file). */
  static from(lists: Uint32Array | PagedArray, starts: Uint32Array): DocTermLists {
    const out = new DocTermLists();
    out.length = lists.length;
    if (lists instanceof Uint32Array) out.memory = lists;
    else {
      out.disk = lists;
      out.base = lists.length;
      out.memory = new Uint32Array(1024);
    }
    out.starts = Array.from(starts);
    return out;
  }

  get size(): number {
    return this.length;
  }

  /** Bytes held in memory. */
  get bytes(): number {
    return this.memory.byteLength;
  }

  /** Appends the list of the next document. */
  append(terms: number[]): void {
    const held = this.length - this.base;
    if (held + terms.length > this.memory.length) {
      const grown = new Uint32Array(Math.max(this.memory.length * 2, held + terms.length));
      grown.set(this.memory);
      this.memory = grown;
    }
    this.starts.push(this.length);
    for (const id of terms) this.memory[this.length++ - this.base] = id;
  }

  /** The term ids of document `doc` (read from the snapshot file when its list is there). */
  of(doc: number): Uint32Array | Int32Array {
    const start = this.starts[doc];
    const end = doc + 1 < this.starts.length ? this.starts[doc + 1] : this.length;
    return start < this.base ? this.disk!.read(start, end) : this.memory.subarray(start - this.base, end - this.base);
  }

  /** The lists for a snapshot writer: in memory, or the part still on disk followed by the rest. */
  state(): { docTerms: Uint32Array | ChunkedArray; docTermStart: Uint32Array<ArrayBuffer> } {
    const memory = this.memory.subarray(0, this.length - this.base);
    const disk = this.disk;
    const docTermStart = Uint32Array.from(this.starts);
    if (!disk) return { docTerms: memory, docTermStart };
    const docTerms = {
      length: this.length,
      *chunks() {
        yield* disk.chunks();
        yield new Uint8Array(memory.buffer, memory.byteOffset, memory.byteLength);
      },
    };
    return { docTerms, docTermStart };
  }

  /** All lists now lie in a snapshot file (`disk`, as long as they are): their memory goes. */
  moveToDisk(disk: PagedArray): void {
    this.disk = disk;
    this.base = this.length;
    this.memory = new Uint32Array(1024);
  }
}
