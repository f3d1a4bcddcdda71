/** A growable posting list: document numbers with their per-field term frequencies packed in 32 bits. */

/** Frequencies saturate in BM25 long before these caps: topic 8 bits, content and messages 12 bits each. */
export const FIELD_LIMITS = [0xff, 0xfff, 0xfff] as const;
const SHIFTS = [0, 8, 20];

export function packFields(topic: number, content: number, messages: number): number {
  return (
    (Math.min(topic, FIELD_LIMITS[0]) | (Math.min(content, FIELD_LIMITS[1]) << SHIFTS[1]) | (Math.min(messages, FIELD_LIMITS[2]) << SHIFTS[2])) >>> 0
  );
}

export function unpackField(packed: number, field: number): number {
  return (packed >>> SHIFTS[field]) & FIELD_LIMITS[field];
}

export class Postings {
  docs = new Int32Array(2);
  freqs = new Uint32Array(2);
  length = 0;
  /** Documents still present (the document frequency). */
  live = 0;

  push(doc: number, packed: number): void {
    if (this.length === this.docs.length) {
      const docs = new Int32Array(this.length * 2);
      docs.set(this.docs);
      this.docs = docs;
      const freqs = new Uint32Array(this.length * 2);
      freqs.set(this.freqs);
      this.freqs = freqs;
    }
    this.docs[this.length] = doc;
    this.freqs[this.length++] = packed;
    this.live++;
  }

  /** Drops the entries of removed documents. */
  compact(alive: (doc: number) => boolean): void {
    let w = 0;
    for (let r = 0; r < this.length; r++) {
      if (!alive(this.docs[r])) continue;
      this.docs[w] = this.docs[r];
      this.freqs[w++] = this.freqs[r];
    }
    this.length = w;
  }
}
