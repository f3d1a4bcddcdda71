/**
 * The semantic leg's file read and checked on a thread (semantic/semantic-aside.ts) gives what a read on this thread
 * gives: the same data from a sound file, nothing from a damaged one (its checksum, or a term out of range under a
 * checksum made to fit), nothing where there is no file.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { silentLogger } from '../../src/core/log.js';
import { readSemantic } from '../../src/core/semantic/semantic-aside.js';
import { encodeSemantic } from '../../src/core/semantic/semantic-file.js';
import { SemanticIndex } from '../../src/core/semantic/semantic-index.js';
import { conversation, tempDir } from '../helpers.js';

const WORDS = ['watcher', 'database', 'pool', 'timeout', 'parser', 'cache', 'readme', 'deploy', 'token', 'schema', 'retry', 'socket'];

/** A leg's file, with a learned model and its vectors. */
async function legFile(): Promise<Buffer> {
  const leg = new SemanticIndex(silentLogger, 0, false);
  leg.release();
  for (let n = 0; n < 24; n++) {
    const s = conversation(`s${n}`, WORDS[n % 12], [`please look at the ${WORDS[n % 12]} ${WORDS[(n * 5) % 12]} only${n}word`], ['done']);
    leg.add(s, s.turns);
  }
  await leg.settled();
  const data = leg.toData();
  leg.close();
  assert.ok(data.model, 'a model was learned');
  return encodeSemantic(data);
}

/** The file with its first term set to `term`, its checksum made to fit. */
function withTerm(file: Buffer, term: number): Buffer {
  const out = Buffer.from(file);
  const json = out.readUInt32LE(8);
  out.writeUInt32LE(term, 16 + ((json + 3) & ~3));
  out.writeUInt32LE(crc32(out.subarray(16)), 12);
  return out;
}

test('the semantic file read on a thread gives what a read here gives, sound, damaged or missing', async () => {
  const dir = tempDir();
  const file = await legFile();
  const path = join(dir, 'semantic.bin');
  const both = async (): Promise<[Awaited<ReturnType<typeof readSemantic>>, Awaited<ReturnType<typeof readSemantic>>]> => [
    await readSemantic(path, true),
    await readSemantic(path, false),
  ];

  writeFileSync(path, file);
  const [aside, here] = await both();
  assert.ok(aside?.data && here?.data, 'a sound file is read');
  assert.deepEqual({ ...aside.data }, { ...here.data });
  assert.ok(aside.data.vectors.rows.buffer instanceof SharedArrayBuffer, 'read by the thread, into memory shared with it');
  assert.ok(!(here.data.vectors.rows.buffer instanceof SharedArrayBuffer), 'read here');

  const flipped = Buffer.from(file);
  flipped[flipped.length - 3] ^= 0x40;
  writeFileSync(path, flipped);
  for (const read of await both()) assert.deepEqual(read, { data: undefined }, 'a byte changed: the checksum tells');

  writeFileSync(path, withTerm(file, 1 << 30));
  for (const read of await both()) assert.deepEqual(read, { data: undefined }, 'a term out of range, under a checksum that fits');
  writeFileSync(path, withTerm(file, 0));
  for (const read of await both()) assert.ok(read?.data, 'the same change within range is read');

  for (const read of [await readSemantic(join(dir, 'none.bin'), true), await readSemantic(join(dir, 'none.bin'), false)])
    assert.equal(read, undefined, 'no file');
});
