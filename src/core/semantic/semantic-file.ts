/**
 * The semantic leg on disk (index/semantic.bin, written with the snapshot): the bags, the stems each session asked
 * (asked-index.ts), the learned model and the vectors, so that a restart (and every CLI run) searches by meaning at once instead of learning again. Layout: a
 * magic word, version and checksum, a JSON header (the words, the sessions' ids, the sizes), then the typed arrays, each
 * starting on a 4-byte boundary. Anything unexpected makes the file unusable as a whole: the leg is learned again.
 */
import { crc32 } from 'node:zlib';
import type { LsaModel } from './lsa.js';
import { startsOf, type BagRows, type VectorRows } from './rows.js';

const MAGIC = 0x5353454d; // "SSEM"
const VERSION = 4;
/** Files of the previous layout (every list of ids written out) are read as they are. */
const READ_VERSIONS = new Set([3, VERSION]);
/** Magic, version, header length, CRC-32 of everything after these 16 bytes. */
const HEAD = 16;

export interface SemanticData {
  words: string[];
  bags: BagRows;
  /** Each session's asked stems (ids in `words`). */
  asked: BagRows;
  model?: { lsa: LsaModel; toModel: Int32Array; sessions: number };
  /** One row of `model.lsa.k` numbers per session (none without a model). */
  vectors: VectorRows;
}

interface Header {
  words: string[];
  ids: string[];
  lengths: number[];
  /** null: the same ids as `ids`, in the same order (as nearly always: one list parsed instead of three at a start). */
  askedIds: string[] | null;
  askedLengths: number[];
  k: number;
  modelWords: number;
  sessions: number;
  vectorIds: string[] | null;
}

/** `ids`, or null where they are `of` (the header's lists that repeat its first are written as null). */
function unlessSame(ids: string[], of: string[]): string[] | null {
  return ids.length === of.length && ids.every((id, i) => id === of[i]) ? null : ids;
}

const aligned = (n: number): number => (n + 3) & ~3;
const lengthsOf = (rows: BagRows): number[] => rows.ids.map((_, i) => rows.starts[i + 1] - rows.starts[i]);

export function encodeSemantic(data: SemanticData): Buffer {
  const k = data.model?.lsa.k ?? 0;
  const ids = data.bags.ids;
  const header: Header = {
    words: data.words,
    ids,
    lengths: lengthsOf(data.bags),
    askedIds: unlessSame(data.asked.ids, ids),
    askedLengths: lengthsOf(data.asked),
    k,
    modelWords: data.model?.lsa.idf.length ?? 0,
    sessions: data.model?.sessions ?? 0,
    vectorIds: unlessSame(data.vectors.ids, ids),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const parts: Buffer[] = [];
  const head = Buffer.alloc(HEAD);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(VERSION, 4);
  head.writeUInt32LE(json.length, 8);
  parts.push(head, json, Buffer.alloc(aligned(json.length) - json.length));
  const view = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  for (const bags of [data.bags, data.asked]) {
    const total = bags.starts[bags.ids.length];
    // (the counts padded to a 4-byte boundary)
    parts.push(view(bags.terms.subarray(0, total)), view(bags.counts.subarray(0, total)), Buffer.alloc((total % 2) * 2));
  }
  if (data.model) {
    // one entry per word: words that came after the model was learned are in none of it (−1)
    const toModel = new Int32Array(data.words.length).fill(-1);
    toModel.set(data.model.toModel.subarray(0, data.words.length));
    parts.push(view(toModel), view(data.model.lsa.idf), view(data.model.lsa.projection), view(data.vectors.rows.subarray(0, data.vectors.ids.length * k)));
  }
  const file = Buffer.concat(parts);
  file.writeUInt32LE(crc32(file.subarray(HEAD)), 12);
  return file;
}

/** The data of a file `encodeSemantic` wrote, or undefined when it is not one (or is damaged). */
export function decodeSemantic(buffer: Buffer): SemanticData | undefined {
  try {
    if (buffer.length < HEAD || buffer.readUInt32LE(0) !== MAGIC || !READ_VERSIONS.has(buffer.readUInt32LE(4))) return undefined;
    if (crc32(buffer.subarray(HEAD)) !== buffer.readUInt32LE(12)) return undefined;
    const jsonLength = buffer.readUInt32LE(8);
    const header = JSON.parse(buffer.subarray(HEAD, HEAD + jsonLength).toString('utf8')) as Header;
    const askedIds = header.askedIds ?? header.ids;
    const vectorIds = header.vectorIds ?? header.ids;
    let offset = HEAD + aligned(jsonLength);
    // Views into the file's bytes, not copies: every part of them is kept (bags, model, vectors), and a warm start at
    // 10,000 sessions neither copies nor touches 29 MB more. Until every view is let go the whole file stays in memory,
    // at most its size. (A buffer that does not start on a 4-byte boundary is copied once, whole, so that it does.) A
    // session's own views are made when it is read (rows.ts).
    const bytes = buffer.byteOffset % 4 ? new Uint8Array(buffer) : buffer;
    const take = <T>(make: (b: ArrayBufferLike, at: number, length: number) => T, size: number, bytesPer: number): T => {
      if (offset + size * bytesPer > bytes.length) throw new Error('truncated');
      const view = make(bytes.buffer, bytes.byteOffset + offset, size);
      offset += aligned(size * bytesPer);
      return view;
    };
    const bagsOf = (ids: string[], lengths: number[]): BagRows => {
      if (lengths.length !== ids.length) throw new Error('lengths and ids disagree');
      const starts = startsOf(lengths);
      const total = starts[ids.length];
      const terms = take((b, at, n) => new Uint32Array(b, at, n), total, 4);
      const counts = take((b, at, n) => new Uint16Array(b, at, n), total + (total % 2), 2).subarray(0, total);
      for (let i = 0; i < terms.length; i++) if (terms[i] >= header.words.length) throw new Error('word out of range');
      return { ids, starts, terms, counts };
    };
    const bags = bagsOf(header.ids, header.lengths);
    const asked = bagsOf(askedIds, header.askedLengths);
    const data: SemanticData = { words: header.words, bags, asked, vectors: { ids: [], rows: new Float32Array(0) } };
    if (header.k > 0) {
      // one entry per word; a file of an earlier build holds one per word known when the model was learned (read
      // as it is: the words after are in none of the model)
      const held = (buffer.length - offset) / 4 - header.modelWords * (1 + header.k) - vectorIds.length * header.k;
      if (!Number.isInteger(held) || held < 0 || held > header.words.length) throw new Error('model out of range');
      const toModel = new Int32Array(header.words.length).fill(-1);
      toModel.set(take((b, at, n) => new Int32Array(b, at, n), held, 4));
      const idf = take((b, at, n) => new Float32Array(b, at, n), header.modelWords, 4);
      const projection = take((b, at, n) => new Float32Array(b, at, n), header.modelWords * header.k, 4);
      data.model = { lsa: { k: header.k, idf, projection }, toModel, sessions: header.sessions };
      data.vectors = { ids: vectorIds, rows: take((b, at, n) => new Float32Array(b, at, n), vectorIds.length * header.k, 4) };
    }
    return offset === aligned(buffer.length) ? data : undefined;
  } catch {
    return undefined;
  }
}
