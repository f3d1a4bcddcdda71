/**
 * The snapshot file written front to back in pieces of a few MB: arrays as they are (8-byte aligned), sections with their
 * checksums, and JSON a piece at a time (store/snapshot.ts lays the file out).
 */
import type { FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import type { ChunkedArray } from '../index/state.js';
import type { PagedArray } from '../index/postings.js';
import { BlockChecksums } from './disk-array.js';

/** Where each section lies and its checksums: the part of a snapshot's header a writer fills in. */
export interface SectionTable {
  sections: Record<string, [number, number]>;
  checksums: Record<string, number>;
  blocks: Record<string, string>;
}

/**
 * JSON text with every character outside ASCII written as its `\u` escape (a character outside the BMP as its two
 * halves): the same value to JSON.parse. A header of 50,000 sessions holds 140,200 such characters in 98.6 MB; decoded
 * as UTF-8 they made the whole text a string of two bytes a character (192 ms to decode, 441 to parse), as ASCII 101
 * and 382 ms, and half the memory.
 */
export function asciiJson(text: string): string {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Characters of JSON gathered before they are written (1 M). */
const JSON_PIECE = 1 << 20;
/** Elements of a streamed list stringified together. */
const ELEMENTS_AT_ONCE = 256;

/**
 * Writes go out one at a time, in order, while the next piece is made: at 50,000 sessions a snapshot is 4.4 GB, and
 * waiting for each write (the system copying it into its cache) left the thread idle for 8 of the 24 s a write took.
 * A write still in flight when the next is asked for is awaited first, so at most one is out at a time.
 */
export class SnapshotWriter {
  offset = 0;
  private parts: Buffer[] = [];
  private pending = 0;
  private inflight: Promise<unknown> = Promise.resolve();
  /** Two buffers a paged section's pieces are copied into (its producer reuses a piece's memory for the next). */
  private readonly copies: Buffer[] = [];
  private turn = 0;
  constructor(private readonly handle: FileHandle) {}

  async write(buffer: Buffer): Promise<[number, number]> {
    const at = this.offset;
    this.parts.push(buffer);
    this.pending += buffer.length;
    this.offset += buffer.length;
    if (this.pending >= 4 * 1024 * 1024) await this.flush();
    return [at, buffer.length];
  }

  async array(array: ArrayBufferView): Promise<[number, number]> {
    const pad = (8 - (this.offset % 8)) % 8;
    if (pad) await this.write(Buffer.alloc(pad));
    return this.write(Buffer.from(array.buffer, array.byteOffset, array.byteLength));
  }

  /** Writes a named section and records its checksum (of the data, without the padding before it). */
  async section(into: SectionTable, name: string, data: Buffer | ArrayBufferView): Promise<void> {
    into.sections[name] = Buffer.isBuffer(data) ? await this.write(data) : await this.array(data);
    into.checksums[name] = crc32(Buffer.isBuffer(data) ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }

  /**
   * Writes an array that stays in the file once restored, with a checksum per block for reads of a range (what a reader
   * checks: a checksum of the whole section was never read, and cost a second pass over gigabytes at 50,000 sessions).
   */
  async pagedSection(into: SectionTable, name: string, data: ArrayBufferView | ChunkedArray | PagedArray): Promise<void> {
    const pad = (8 - (this.offset % 8)) % 8;
    if (pad) await this.write(Buffer.alloc(pad));
    const at = this.offset;
    const blocks = new BlockChecksums();
    const pieces = ArrayBuffer.isView(data) ? [new Uint8Array(data.buffer, data.byteOffset, data.byteLength)] : data.chunks();
    for (const piece of pieces) {
      // (an empty piece, such as a restored index's term lists in memory with nothing added since, is nothing to write:
      // copied, it took the other buffer's turn without a write to wait for, and the next section's first piece was then
      // copied over the last one while its write was still under way)
      if (!piece.byteLength) continue;
      const bytes = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
      blocks.push(bytes);
      // a piece's memory is reused for the next (ChunkedArray): copied, so it is written while the next is made
      await this.write(this.copy(bytes));
      await this.flush();
    }
    into.sections[name] = [at, this.offset - at];
    const sums = blocks.finish();
    into.blocks[name] = Buffer.from(sums.buffer, sums.byteOffset, sums.byteLength).toString('base64');
  }

  /**
   * `JSON.stringify(value)` written a piece at a time, the arrays of `value` (or those named in `streamed`, of an object,
   * and the arrays of an object so named: columns) element by element: a large history's header and touches are
   * hundreds of MB as one string, held twice (string and bytes) at every checkpoint of a first load. The object's
   * streamed keys come last. Returns where it lies and its CRC.
   */
  async json(value: unknown, streamed: readonly string[] = []): Promise<{ at: number; length: number; crc: number }> {
    const at = this.offset;
    let crc = 0;
    let text = '';
    const put = async (piece: string, last = false): Promise<void> => {
      text += piece;
      if (text.length < JSON_PIECE && !last) return;
      // (ASCII only: a reader decodes it a byte to a character, into a string of one byte a character, not two)
      const bytes = Buffer.from(asciiJson(text), 'latin1');
      text = '';
      crc = crc32(bytes, crc);
      await this.write(bytes);
    };
    // (a few hundred elements at a time: a column of 50,000 numbers is not 50,000 writes to the piece)
    const elements = async (list: readonly unknown[]): Promise<void> => {
      await put('[');
      for (let i = 0; i < list.length; i += ELEMENTS_AT_ONCE) await put(`${i ? ',' : ''}${JSON.stringify(list.slice(i, i + ELEMENTS_AT_ONCE)).slice(1, -1)}`);
      await put(']');
    };
    // an array element by element; an object's arrays so, two levels down (a header's columns: sessions.fields.topic)
    const streamedValue = async (item: unknown, depth = 0): Promise<void> => {
      if (Array.isArray(item)) return elements(item);
      if (item === null || typeof item !== 'object' || depth > 1) return put(JSON.stringify(item) ?? 'null');
      await put('{');
      let i = 0;
      for (const [key, v] of Object.entries(item)) {
        if (v === undefined) continue;
        await put(`${i++ ? ',' : ''}${JSON.stringify(key)}:`);
        await streamedValue(v, depth + 1);
      }
      await put('}');
    };
    if (Array.isArray(value)) await elements(value);
    else {
      const rest: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const key of streamed) delete rest[key];
      const head = JSON.stringify(rest);
      await put(head.slice(0, -1));
      let first = head === '{}';
      for (const key of streamed) {
        const list = (value as Record<string, unknown>)[key];
        if (list === undefined) continue;
        await put(`${first ? '' : ','}${JSON.stringify(key)}:`);
        await streamedValue(list);
        first = false;
      }
      await put('}');
    }
    await put('', true);
    return { at, length: this.offset - at, crc };
  }

  /** Starts writing what was gathered, once the write before it is done (one in flight). */
  async flush(): Promise<void> {
    if (!this.pending) return;
    // (written as they are, not copied into one buffer first: at 10,000 sessions, 0.86 GB copied once more)
    const parts = this.parts;
    this.parts = [];
    this.pending = 0;
    await this.inflight;
    this.inflight = this.handle.writev(parts);
    // (its failure is thrown by the next flush or by `drain`; until then it must not count as unhandled)
    this.inflight.catch(() => undefined);
  }

  /** Writes what is gathered and waits until every write is done. */
  async drain(): Promise<void> {
    await this.flush();
    await this.inflight;
  }

  /** `bytes` copied into the writer's own buffer: the one not in the write in flight. */
  private copy(bytes: Buffer): Buffer {
    const i = (this.turn = 1 - this.turn);
    if (!this.copies[i] || this.copies[i].length < bytes.length) this.copies[i] = Buffer.allocUnsafe(bytes.length);
    bytes.copy(this.copies[i]);
    return this.copies[i].subarray(0, bytes.length);
  }
}
