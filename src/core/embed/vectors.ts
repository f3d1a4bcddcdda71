/**
 * The vectors of the user's model, per session: each unit's vector as 8-bit codes with a scale (a fourth of the floats'
 * memory, cosine within about 0.01), and the session's centroid. A search ranks every session by its centroid, then
 * the best PREFILTER of them by their best unit: at 10,000 sessions of 384-dimension vectors, about 4 million products
 * for the centroids and 3 million for the units (bench:embeddings). On disk (embeddings/vectors.bin): magic, version, CRC-32, a JSON
 * header (model, dimensions, ids, units per session), then the arrays; anything unexpected makes the file unusable.
 */
import { crc32 } from 'node:zlib';
import { normalised } from './embedder.js';

const MAGIC = 0x53535645; // "SSVE"
const VERSION = 1;
const HEAD = 16;
/** Sessions whose units are compared with the query (the rest are ranked by their centroid only). */
export const PREFILTER = 300;

/** The dot product of `q` with `codes[at..at+dims)` (four sums: about a fifth faster than one in V8). */
function dot(q: Float32Array, codes: Int8Array | Float32Array, at: number, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dims; i += 4) {
    s0 += q[i] * codes[at + i];
    s1 += q[i + 1] * codes[at + i + 1];
    s2 += q[i + 2] * codes[at + i + 2];
    s3 += q[i + 3] * codes[at + i + 3];
  }
  for (; i < dims; i++) s0 += q[i] * codes[at + i];
  return s0 + s1 + s2 + s3;
}

export interface VectorEntry {
  hashes: Uint32Array;
  scales: Float32Array;
  codes: Int8Array;
  centroid: Float32Array;
}

function quantise(vectors: Float32Array[], dims: number): { codes: Int8Array; scales: Float32Array } {
  const codes = new Int8Array(vectors.length * dims);
  const scales = new Float32Array(vectors.length);
  vectors.forEach((v, u) => {
    let most = 0;
    for (let i = 0; i < dims; i++) most = Math.max(most, Math.abs(v[i]));
    const scale = most > 0 ? most / 127 : 1;
    scales[u] = scale;
    for (let i = 0; i < dims; i++) codes[u * dims + i] = Math.round(v[i] / scale);
  });
  return { codes, scales };
}

/** The sessions' centroids side by side, for the first pass of a search (made again after a change). */
interface Centroids {
  keys: string[];
  entries: VectorEntry[];
  matrix: Float32Array;
}

export class VectorStore {
  readonly entries = new Map<string, VectorEntry>();
  private centroids: Centroids | undefined;
  private seen = -1;
  /** Counts changes (entries set or deleted), so that the centroids are laid out again. */
  private changes = 0;

  constructor(
    readonly model: string,
    public dims = 0,
  ) {}

  /** A session's unit vectors (all of one length; another length than the store's is refused). */
  set(id: string, hashes: number[], vectors: Float32Array[]): void {
    if (!vectors.length) {
      this.delete(id);
      return;
    }
    if (!this.dims) this.dims = vectors[0].length;
    this.changes++;
    if (vectors.some((v) => v.length !== this.dims)) throw new Error(`the model gave vectors of ${vectors[0].length} dimensions where it gave ${this.dims}`);
    const centroid = new Float32Array(this.dims);
    for (const v of vectors) for (let i = 0; i < this.dims; i++) centroid[i] += v[i];
    this.entries.set(id, { hashes: Uint32Array.from(hashes), ...quantise(vectors, this.dims), centroid: normalised(centroid) });
  }

  delete(id: string): boolean {
    this.changes++;
    return this.entries.delete(id);
  }

  private laidOut(): Centroids {
    if (this.centroids && this.seen === this.changes) return this.centroids;
    const keys = [...this.entries.keys()];
    const entries = [...this.entries.values()];
    const matrix = new Float32Array(entries.length * this.dims);
    entries.forEach((e, i) => matrix.set(e.centroid, i * this.dims));
    this.seen = this.changes;
    return (this.centroids = { keys, entries, matrix });
  }

  /** A unit's vector again (decoded), to keep it when its session is embedded anew. */
  unit(entry: VectorEntry, u: number): Float32Array {
    const v = new Float32Array(this.dims);
    for (let i = 0; i < this.dims; i++) v[i] = entry.codes[u * this.dims + i] * entry.scales[u];
    return v;
  }

  /** Sessions by their best unit's cosine with `query` (unit length), best first. */
  search(query: Float32Array, limit: number, accept?: (key: string) => boolean): { key: string; similarity: number }[] {
    const dims = this.dims;
    if (!dims || query.length !== dims) return [];
    const { keys, entries, matrix } = this.laidOut();
    const rough = new Float32Array(keys.length);
    for (let i = 0; i < keys.length; i++) rough[i] = dot(query, matrix, i * dims, dims);
    // the centroid score of the PREFILTER-th best: every session at or above it is compared unit by unit
    const kept = Math.max(PREFILTER, limit);
    const floor = keys.length > kept ? Float32Array.from(rough).sort()[keys.length - kept] : -Infinity;
    const best: { key: string; similarity: number }[] = [];
    for (let i = 0; i < keys.length; i++) {
      if (rough[i] < floor) continue;
      const key = keys[i];
      const entry = entries[i];
      if (accept && !accept(key)) continue;
      let top = -1;
      for (let u = 0; u < entry.scales.length; u++) top = Math.max(top, dot(query, entry.codes, u * dims, dims) * entry.scales[u]);
      best.push({ key, similarity: top });
    }
    return best.sort((a, b) => b.similarity - a.similarity).slice(0, limit);
  }

  /**
   * The file as parts to write one after another: the head, the header, then views of the arrays as they are (nothing
   * copied: a session embedded again gets new arrays, so the views stay what they were while the file is written).
   */
  encodeParts(): Buffer[] {
    const list = [...this.entries.values()];
    const header = Buffer.from(JSON.stringify({ model: this.model, dims: this.dims, ids: [...this.entries.keys()], counts: list.map((e) => e.scales.length) }));
    const view = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const body = [
      header,
      Buffer.alloc((4 - (header.length % 4)) % 4),
      ...list.map((e) => view(e.hashes)),
      ...list.map((e) => view(e.scales)),
      ...list.map((e) => view(e.centroid)),
      ...list.map((e) => view(e.codes)),
    ];
    let crc = 0;
    for (const part of body) crc = crc32(part, crc);
    const head = Buffer.alloc(HEAD);
    head.writeUInt32LE(MAGIC, 0);
    head.writeUInt32LE(VERSION, 4);
    head.writeUInt32LE(header.length, 8);
    head.writeUInt32LE(crc, 12);
    return [head, ...body];
  }

  encode(): Buffer {
    return Buffer.concat(this.encodeParts());
  }

  /** The store a file held, or undefined when it is damaged, of another version, or of another model. */
  static decode(bytes: Buffer, model: string): VectorStore | undefined {
    try {
      if (bytes.length < HEAD || bytes.readUInt32LE(0) !== MAGIC || bytes.readUInt32LE(4) !== VERSION) return undefined;
      const body = bytes.subarray(HEAD);
      if (crc32(body) !== bytes.readUInt32LE(12)) return undefined;
      const headerLength = bytes.readUInt32LE(8);
      const header = JSON.parse(body.subarray(0, headerLength).toString('utf8')) as { model: string; dims: number; ids: string[]; counts: number[] };
      if (header.model !== model || header.ids.length !== header.counts.length) return undefined;
      const store = new VectorStore(model, header.dims);
      const dims = header.dims;
      // the arrays are views of the file's bytes where those start on a 4-byte boundary (a file read whole does), else
      // of a copy
      const copy = body.byteOffset % 4 === 0 ? body : new Uint8Array(body);
      let at = headerLength + ((4 - (headerLength % 4)) % 4);
      const take = <T>(make: (buf: ArrayBufferLike, offset: number, n: number) => T, n: number, size: number): T => {
        const out = make(copy.buffer, copy.byteOffset + at, n);
        at += n * size;
        return out;
      };
      const hashes = header.counts.map((n) => take((b, o, k) => new Uint32Array(b, o, k), n, 4));
      const scales = header.counts.map((n) => take((b, o, k) => new Float32Array(b, o, k), n, 4));
      const centroids = header.counts.map(() => take((b, o, k) => new Float32Array(b, o, k), dims, 4));
      const codes = header.counts.map((n) => take((b, o, k) => new Int8Array(b, o, k), n * dims, 1));
      if (at !== copy.length) return undefined;
      header.ids.forEach((id, i) => store.entries.set(id, { hashes: hashes[i], scales: scales[i], centroid: centroids[i], codes: codes[i] }));
      return store;
    } catch {
      return undefined;
    }
  }
}
