/**
 * Arrays that stay in the snapshot file: the postings and document term lists are most of an index's bytes, and a
 * query needs a few hundred of them. A range is read when asked for, in whole blocks of BLOCK_ELEMENTS, and every
 * block read is checked against its CRC-32 first, so damaged bytes never reach an answer. `verify` checks all of them
 * once, after answering has begun. A warm start then reads the header and the small tables only, and memory holds
 * what queries touch.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';

/** Elements (4 bytes each) per checked block. */
export const BLOCK_ELEMENTS = 1024;
const BLOCK_BYTES = BLOCK_ELEMENTS * 4;
/** Blocks checked per turn of the event loop while verifying. */
const VERIFY_BLOCKS = 256;

/** Thrown when a block of a snapshot array does not match its checksum. */
export class DamagedArrayError extends Error {}

/** An open snapshot file the arrays of one index read from; closed once no index uses it. */
export class ArrayFile {
  readonly fd: number;
  private closed = false;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

/** CRC-32 of every BLOCK_ELEMENTS elements of bytes pushed in any pieces (the last block may be shorter). */
export class BlockChecksums {
  private readonly sums: number[] = [];
  private partial = Buffer.alloc(0);

  push(bytes: Uint8Array): void {
    let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.partial.length) {
      const need = BLOCK_BYTES - this.partial.length;
      this.partial = Buffer.concat([this.partial, data.subarray(0, need)]);
      data = data.subarray(need);
      if (this.partial.length < BLOCK_BYTES) return;
      this.sums.push(crc32(this.partial));
      this.partial = Buffer.alloc(0);
    }
    let at = 0;
    for (; at + BLOCK_BYTES <= data.length; at += BLOCK_BYTES) this.sums.push(crc32(data.subarray(at, at + BLOCK_BYTES)));
    if (at < data.length) this.partial = Buffer.from(data.subarray(at));
  }

  finish(): Uint32Array {
    if (this.partial.length) this.sums.push(crc32(this.partial));
    this.partial = Buffer.alloc(0);
    return Uint32Array.from(this.sums);
  }
}

export class DiskArray {
  constructor(
    private readonly file: ArrayFile,
    /** Byte offset of element 0 in the file. */
    readonly at: number,
    readonly length: number,
    private readonly checksums: Uint32Array,
    readonly signed: boolean,
  ) {
    if (checksums.length !== Math.ceil(length / BLOCK_ELEMENTS)) throw new DamagedArrayError('block checksums do not cover the array');
  }

  /** Elements `from`..`to`, read and checked block by block. */
  read(from: number, to: number): Uint32Array | Int32Array {
    if (from >= to) return this.signed ? new Int32Array(0) : new Uint32Array(0);
    const first = Math.floor(from / BLOCK_ELEMENTS);
    const last = Math.ceil(to / BLOCK_ELEMENTS);
    const bytes = this.readBlocks(first, last);
    const all = this.signed
      ? new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
      : new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    return all.subarray(from - first * BLOCK_ELEMENTS, to - first * BLOCK_ELEMENTS);
  }

  /** The whole array in memory (for a merge), checked. */
  readAll(): Uint32Array | Int32Array {
    return this.read(0, this.length);
  }

  /** The raw bytes of blocks `first`..`last`, each checked against its CRC-32. */
  private readBlocks(first: number, last: number, into?: Buffer): Buffer {
    const start = first * BLOCK_BYTES;
    const end = Math.min(last * BLOCK_BYTES, this.length * 4);
    const bytes = into ? into.subarray(0, end - start) : Buffer.allocUnsafe(end - start);
    let done = 0;
    while (done < bytes.length) {
      const n = readSync(this.file.fd, bytes, done, bytes.length - done, this.at + start + done);
      if (n === 0) throw new DamagedArrayError(`${this.file.path}: an index array is truncated`);
      done += n;
    }
    for (let b = first; b < last; b++) {
      const from = (b - first) * BLOCK_BYTES;
      if (crc32(bytes.subarray(from, Math.min(bytes.length, from + BLOCK_BYTES))) !== this.checksums[b]) {
        throw new DamagedArrayError(`${this.file.path}: an index array is damaged (checksum of block ${b})`);
      }
    }
    return bytes;
  }

  /** Its bytes, a piece at a time, each piece checked (for copying into the next snapshot), read into one buffer. */
  *chunks(blocks = 2048): Generator<Uint8Array> {
    const into = Buffer.allocUnsafe(Math.min(blocks * BLOCK_BYTES, this.length * 4));
    for (let b = 0; b < this.checksums.length; b += blocks) yield this.readBlocks(b, Math.min(this.checksums.length, b + blocks), into);
  }

  /** Checks every block, yielding to the event loop between pieces; rejects on the first damaged one. */
  async verify(): Promise<void> {
    for (let b = 0; b < this.checksums.length; b += VERIFY_BLOCKS) {
      this.readBlocks(b, Math.min(this.checksums.length, b + VERIFY_BLOCKS));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
