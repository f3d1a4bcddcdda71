/** JSON written a piece at a time reads back as JSON.stringify's would, with the checksum of what was written. */
import assert from 'node:assert/strict';
import { isAscii } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { ArrayFile, DiskArray } from '../../src/core/store/disk-array.js';
import { asciiJson, SnapshotWriter, type SectionTable } from '../../src/core/store/snapshot-writer.js';
import { tempDir } from '../helpers.js';

/** Seeded values of every JSON shape: nested objects and arrays, absent fields, odd strings, long lists. */
function randomValue(seed: number, depth = 0): unknown {
  let state = seed;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n);
  };
  const strings = ['', 'plain', 'quote " and \\ slash', 'line\nbreak', 'é ü 日本語', '😀 astral', '\ud800 lone half', '\u0000 nul', '</script>'];
  const make = (d: number): unknown => {
    switch (d > 3 ? next(4) : next(7)) {
      case 0:
        return strings[next(strings.length)];
      case 1:
        return next(3) ? next(1_000_000) - 500_000 : next(1000) / 7;
      case 2:
        return [null, true, false, undefined][next(4)];
      case 3:
        return new Date(Date.UTC(2026, next(12), 1 + next(28)));
      case 4:
        return Array.from({ length: next(6) }, () => make(d + 1));
      default: {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < next(5); i++) o[strings[next(strings.length)] + i] = make(d + 1);
        return o;
      }
    }
  };
  return make(depth);
}

async function written(value: unknown, streamed: string[] = []): Promise<{ text: string; crc: number; bytes: Buffer }> {
  const file = join(tempDir(), 'out.bin');
  const handle = await open(file, 'w');
  const out = new SnapshotWriter(handle);
  await out.write(Buffer.from('before'));
  const where = await out.json(value, streamed);
  await out.write(Buffer.from('after'));
  await out.drain();
  await handle.close();
  const bytes = readFileSync(file).subarray(where.at, where.at + where.length);
  assert.equal(where.crc, crc32(bytes));
  // every character outside ASCII is escaped: a reader decodes the bytes one to a character
  assert.ok(isAscii(bytes), 'ASCII only');
  return { text: bytes.toString('latin1'), crc: where.crc, bytes };
}

test('every value written a piece at a time parses to what JSON.stringify gives, its checksum that of its bytes', async () => {
  for (let seed = 1; seed <= 200; seed++) {
    const list = Array.from({ length: seed % 7 }, (_, i) => randomValue(seed * 31 + i, 1));
    const object = {
      head: randomValue(seed),
      keys: list,
      files: seed % 3 ? list : undefined,
      sessions: Array.from({ length: seed % 5 }, (_, i) => randomValue(seed + i)),
    };
    const { text } = await written(object, ['keys', 'files', 'sessions']);
    assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(object)), `seed ${seed}`);
    const array = await written(list);
    assert.equal(array.text, asciiJson(JSON.stringify(list)), `seed ${seed}: an array is written as JSON.stringify writes it, escaped`);
    assert.deepEqual(JSON.parse(array.text), JSON.parse(JSON.stringify(list)), `seed ${seed}: the same values`);
  }
});

test('an object of streamed keys only, and lists longer than a piece, read back whole', async () => {
  assert.deepEqual(JSON.parse((await written({ sessions: [] }, ['sessions'])).text), { sessions: [] });
  assert.deepEqual(JSON.parse((await written({}, ['sessions'])).text), {});
  const long = Array.from({ length: 60_000 }, (_, i) => ({ id: `session-${i}`, text: 'é'.repeat(i % 50), n: i }));
  const { text, bytes } = await written({ version: 7, sessions: long }, ['sessions']);
  assert.ok(bytes.length > 2 * 1024 * 1024, 'more than one piece');
  assert.deepEqual(JSON.parse(text), { version: 7, sessions: long });
});

/** An array handed out a piece at a time in one buffer, overwritten for each piece (as the merge and the index do). */
function reusedPieces(values: Uint32Array, piece: number): { length: number; chunks: () => Iterable<Uint8Array> } {
  return {
    length: values.length,
    *chunks() {
      const buffer = new Uint32Array(piece);
      for (let at = 0; at < values.length; at += piece) {
        const n = Math.min(piece, values.length - at);
        buffer.set(values.subarray(at, at + n));
        yield new Uint8Array(buffer.buffer, 0, n * 4);
        buffer.fill(0xffffffff); // what a producer does with its buffer once the next piece is asked for
      }
    },
  };
}

test('paged sections whose pieces share one buffer are written as each piece was handed over, while the next is made', async () => {
  const file = join(tempDir(), 'paged.bin');
  const handle = await open(file, 'w');
  const out = new SnapshotWriter(handle);
  const table: SectionTable = { sections: {}, checksums: {}, blocks: {} };
  const arrays = [1, 5_000, 3 * 1024 * 1024 + 17].map((n, k) => Uint32Array.from({ length: n }, (_, i) => (i * 2654435761 + k) >>> 0));
  await out.write(Buffer.from('head'));
  await out.pagedSection(table, 'empty', new Uint32Array(0)); // an index with no postings yet, first
  for (const [k, values] of arrays.entries()) await out.pagedSection(table, `a${k}`, reusedPieces(values, 1 + 300_000 * k));
  await out.drain();
  await handle.close();
  assert.equal(table.sections.empty[1], 0);
  const arrayFile = new ArrayFile(file);
  try {
    for (const [k, values] of arrays.entries()) {
      const [at, length] = table.sections[`a${k}`];
      assert.equal(length, values.length * 4);
      const sums = Buffer.from(table.blocks[`a${k}`], 'base64');
      // read back through its block checksums, as a restored index reads it
      const read = new DiskArray(arrayFile, at, values.length, new Uint32Array(sums.buffer, sums.byteOffset, sums.length / 4), false).readAll();
      assert.ok(Buffer.from(read.buffer, read.byteOffset, read.byteLength).equals(Buffer.from(values.buffer)), `array ${k}`);
    }
  } finally {
    arrayFile.close();
  }
});

test('a paged section whose last piece is empty (a restored index with nothing added since) is written whole, however slow the disk', async () => {
  const file = join(tempDir(), 'slow.bin');
  const handle = await open(file, 'w');
  // the thread pool takes a write's bytes when it runs it, here a moment after it was asked for (a busy machine)
  const slow = new Proxy(handle, {
    get: (target, key) =>
      key === 'writev'
        ? async (buffers: Buffer[]) => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            return target.writev(buffers);
          }
        : (Reflect.get(target, key, target).bind?.(target) ?? Reflect.get(target, key, target)),
  });
  const out = new SnapshotWriter(slow);
  const table: SectionTable = { sections: {}, checksums: {}, blocks: {} };
  const lists = Uint32Array.from({ length: 24_903 }, (_, i) => (i * 2654435761) >>> 0);
  const postings = Uint32Array.from({ length: 24_903 }, (_, i) => i);
  // the term lists of a restored index: the part in its file, then the part in memory (none)
  const restored = {
    length: lists.length,
    *chunks() {
      yield new Uint8Array(lists.buffer);
      yield new Uint8Array(0);
    },
  };
  await out.pagedSection(table, 'docTerms', restored);
  await out.section(table, 'docTermStart', new Uint32Array([0, 5, 9]));
  await out.pagedSection(table, 's0.docs', reusedPieces(postings, 20_000));
  await out.drain();
  await handle.close();
  const bytes = readFileSync(file);
  const [at, length] = table.sections.docTerms;
  assert.ok(bytes.subarray(at, at + length).equals(Buffer.from(lists.buffer)), 'the term lists as handed over, not the postings written after them');
  const [docsAt, docsLength] = table.sections['s0.docs'];
  assert.ok(bytes.subarray(docsAt, docsAt + docsLength).equals(Buffer.from(postings.buffer)));
});

test('a write that fails is reported by the writer; one left behind by another failure is not left unhandled', async () => {
  const file = join(tempDir(), 'failing.bin');
  writeFileSync(file, '');
  const handle = await open(file, 'r'); // opened for reading: every write fails
  try {
    const table: SectionTable = { sections: {}, checksums: {}, blocks: {} };
    const out = new SnapshotWriter(handle);
    await assert.rejects(async () => {
      await out.pagedSection(table, 'a', reusedPieces(new Uint32Array(3 * 1024 * 1024), 1024 * 1024));
      await out.drain();
    }, /EBADF|bad file/i);
    // the array's second piece cannot be read (damage in the previous snapshot): the first one's write is in flight
    const damaged = {
      length: 2 * 1024 * 1024,
      *chunks() {
        yield new Uint8Array(4 * 1024 * 1024);
        throw new Error('a damaged piece');
      },
    };
    await assert.rejects(new SnapshotWriter(handle).pagedSection(table, 'b', damaged), /a damaged piece/);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the write left behind fails meanwhile
  } finally {
    await handle.close();
  }
});
