/** A damaged snapshot, on disk or under a running library: detected, logged, rebuilt, and answers come back whole. */
import assert from 'node:assert/strict';
import { closeSync, openSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { crc32 } from 'node:zlib';
import { openCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { Persistence } from '../../src/core/store/persistence.js';
import { compactHeader, type StoredHeader } from '../../src/core/store/compact-header.js';
import { toColumns, type SessionColumns } from '../../src/core/store/header-columns.js';
import { fullHeader } from '../helpers.js';
import { closeTracked, snapshotHeader, snapshotRows, tempDir } from '../helpers.js';
import { SessionSearchError } from '../../src/core/errors.js';
import { QUERIES, answers, answersComeBack, corpusCopy, open } from '../snapshot-library.js';

afterEach(closeTracked);

/** A snapshot whose header was edited and whose checksum was written to match: what another build would have written. */
function withHeader(b: Buffer, edit: (header: Record<string, unknown>) => void): Buffer {
  const { at, header } = snapshotHeader(b);
  edit(header);
  const bytes = Buffer.from(JSON.stringify(header), 'utf8');
  const footer = Buffer.alloc(32);
  footer.writeBigUInt64LE(BigInt(at), 0);
  footer.writeBigUInt64LE(BigInt(bytes.length), 8);
  footer.writeBigUInt64LE(BigInt(crc32(bytes)), 16);
  footer.write('SSSNAPv2', 24, 'latin1');
  return Buffer.concat([b.subarray(0, at), bytes, footer]);
}

function sectionAt(b: Buffer, name: string): number {
  const sections = snapshotHeader(b).header.sections as Record<string, [number, number]>;
  return sections[name][0];
}

function flipAt(b: Buffer, at: number): Buffer {
  const copy = Buffer.from(b);
  copy[at] ^= 0x40;
  return copy;
}

test('a damaged snapshot, one of another version and one written with other settings are discarded, logged and rebuilt', async () => {
  const root = corpusCopy();
  const data = tempDir();
  await (await open(root, data)).library.close();
  const path = Persistence.snapshotPath(data);
  const good = readFileSync(path);
  const expected = (await open(root, tempDir(), { snapshot: false })).library;
  const damages: [string, (b: Buffer) => Buffer, RegExp][] = [
    ['truncated', (b) => b.subarray(0, Math.floor(b.length / 2)), /snapshot discarded \(not a snapshot of this version \(footer\)\)/],
    [
      'bytes flipped in the header',
      (b) => Buffer.from(b.toString('latin1').replace('"count":', '"cOunt":'), 'latin1'),
      /snapshot discarded \(section header is damaged \(checksum\)\)/,
    ],
    ['bytes flipped in an index array', (b) => flipAt(b, sectionAt(b, 'df')), /snapshot discarded \(section df is damaged \(checksum\)\)/],
    [
      "bytes flipped in the sessions' rows",
      (b) => flipAt(b, sectionAt(b, 'sessionRows') + 3),
      /snapshot discarded \(section sessionRows is damaged \(checksum\)\)/,
    ],
    ['another version', (b) => withHeader(b, (h) => (h.version = 0)), /snapshot discarded \(version 0, this build reads 7, 8, 9 and 10\)/],
    [
      'a session naming a file the header does not hold',
      (b) => withHeader(b, (h) => ((h.sessions as SessionColumns).fields.file[0] = 1e6)),
      /snapshot discarded \(session .* names file 1000000, which the header does not hold\)/,
    ],
    [
      'a document naming a session the header does not hold',
      (b) => withHeader(b, (h) => ((h.keys as unknown[])[0] = 1e6)),
      /snapshot discarded \(a document names session 1000000, which the header does not hold\)/,
    ],
    [
      "a term table's layout that is not its terms' (its checksum matching)",
      (b) =>
        withHeader(b, (h) => {
          const sections = h.sections as Record<string, [number, number]>;
          const checksums = h.checksums as Record<string, number>;
          sections.termSlots = sections.termStarts;
          checksums.termSlots = checksums.termStarts;
        }),
      /snapshot discarded \(the term table's layout does not fit its terms\)/,
    ],
    [
      'the previous layout',
      (b) => Buffer.concat([b.subarray(0, b.length - 8), Buffer.from('SSSNAPv1')]),
      /snapshot discarded \(not a snapshot of this version \(footer\)\)/,
    ],
    ['not a snapshot at all', () => Buffer.from('\u0000garbage'.repeat(10)), /snapshot discarded/],
  ];
  for (const [what, damage, reason] of damages) {
    writeFileSync(path, damage(good));
    const { library, logger } = await open(root, data);
    assert.ok(
      logger.lines.some((l) => reason.test(l)),
      `${what}: ${logger.lines.join('\n')}`,
    );
    // both rank by meaning once learned: compared when neither is still learning
    await Promise.all([library.semantic.settled(), expected.semantic.settled()]);
    for (const q of QUERIES) assert.deepEqual(answers(library, q), answers(expected, q), `${what}: ${q}`);
    await library.close();
    assert.ok(readFileSync(path).equals(good) || readFileSync(path).length > 1000, `${what}: a good snapshot was written again`);
  }
  const { logger } = await open(root, data, { exclude: ['**/ccusage/**'] });
  assert.ok(
    logger.lines.some((l) => l.includes('snapshot discarded (written with other settings')),
    logger.lines.join('\n'),
  );
});

const LAYOUTS = { 7: 'every field written out', 8: 'sessions and files as objects', 9: 'every field of the sessions in columns' } as const;
for (const layout of [7, 8, 9] as const)
  test(`a snapshot whose header is of an earlier layout (${layout}: ${LAYOUTS[layout]}) is read as it is, not rebuilt`, async () => {
    const root = corpusCopy();
    const data = tempDir();
    await (await open(root, data)).library.close();
    const path = Persistence.snapshotPath(data);
    const good = readFileSync(path);
    assert.equal(snapshotHeader(good).header.version, 10);
    const before = (await open(root, data)).library;
    await before.semantic.settled();
    const expected = new Map(QUERIES.map((q) => [q, answers(before, q)]));
    const metadata = (library: typeof before): unknown[] =>
      [...library.sessions.values()].map(({ id, source, nativeId, topic, filename, file, size, created, updated, project }) => ({
        id,
        source,
        nativeId,
        topic,
        filename,
        file,
        size,
        created,
        updated,
        project,
      }));
    const sessions = metadata(before);
    await before.close();
    writeFileSync(
      path,
      withHeader(good, (h) => {
        const full = fullHeader(h as unknown as StoredHeader, snapshotRows(good));
        // (nor did the builds that wrote them keep the term table's layout: its terms are hashed at the start)
        delete (h.sections as Record<string, unknown>).termStarts;
        delete (h.sections as Record<string, unknown>).termSlots;
        // (nor had they the sessions' rows)
        delete (h.sections as Record<string, unknown>).sessionRows;
        delete (h.sections as Record<string, unknown>).sessionRowStarts;
        const compact = compactHeader(full.sessions, full.files, full.keys);
        if (layout === 9) Object.assign(h, { version: 9, ...compact, ...toColumns(compact) });
        else if (layout === 8) Object.assign(h, { version: 8, ...compact });
        else {
          Object.assign(h, { version: 7, keys: full.keys, files: full.files, sessions: full.sessions });
          delete h.roots;
        }
      }),
    );
    const { library, logger } = await open(root, data);
    assert.ok(!logger.lines.some((l) => l.includes('snapshot discarded')), logger.lines.join('\n'));
    assert.ok(
      logger.lines.some((l) => /snapshot of .* restored/.test(l)),
      logger.lines.join('\n'),
    );
    assert.deepEqual(metadata(library), sessions, 'every session as the new layout gave it');
    await library.semantic.settled();
    for (const q of QUERIES) assert.deepEqual(answers(library, q), expected.get(q), q);
    await library.close();
  });

test('postings damaged on disk under a running library: the query says so, the index is rebuilt, and answers come back whole', async () => {
  const root = corpusCopy();
  const data = tempDir();
  const { library, logger } = await open(root, data);
  const path = Persistence.snapshotPath(data);
  const [at, length] = (snapshotHeader(readFileSync(path)).header.sections as Record<string, [number, number]>)['s0.docs'];
  // zeroes over every posting of the first segment, in place (the file the library reads from)
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(length), 0, length, at);
  closeSync(fd);
  assert.throws(
    () => library.search('test'),
    (e: unknown) => e instanceof SessionSearchError && e.code === 'READ_ERROR' && /being rebuilt/.test(e.message),
  );
  await answersComeBack(library);
  assert.ok(
    logger.lines.some((l) => l.includes('snapshot discarded') && l.includes('damaged')),
    logger.lines.join('\n'),
  );
  const reference = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {} });
  await reference.load();
  // (by words: the meaning leg of a rebuilt index is learned behind, on its own time, and the reference's may be ready)
  for (const q of QUERIES) assert.deepEqual(answers(library, q, 'lexical'), answers(reference, q, 'lexical'), q);
  await library.close();
});

test('a snapshot found as its writer left it is not read whole at a start (damage its record cannot see is caught as read); one changed since is checked whole', async () => {
  const root = corpusCopy();
  const reference = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {} });
  await reference.load();
  for (const unseen of [true, false]) {
    const data = tempDir();
    await (await open(root, data)).library.close();
    const path = Persistence.snapshotPath(data);
    const [at, length] = (snapshotHeader(readFileSync(path)).header.sections as Record<string, [number, number]>)['s0.docs'];
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(length), 0, length, at);
    closeSync(fd);
    // damage the record of the writing cannot see (the disk's own, in place): the state it recorded is the file's now
    if (unseen) {
      const info = statSync(path);
      writeFileSync(`${path}.written`, `${info.size} ${info.mtimeMs} ${info.ino}`);
    }
    const { library, logger } = await open(root, data);
    const discarded = () => logger.lines.some((l) => l.includes('snapshot discarded') && l.includes('damaged'));
    if (unseen) {
      assert.ok(!discarded(), `the snapshot was not read whole: ${logger.lines.join('\n')}`);
      assert.throws(
        () => library.search('test'),
        (e: unknown) => e instanceof SessionSearchError && e.code === 'READ_ERROR',
      );
      await answersComeBack(library);
    }
    // changed since its writing: checked whole before the load ended, and read again then
    else assert.ok(discarded(), logger.lines.join('\n'));
    assert.ok(discarded(), logger.lines.join('\n'));
    // (by words: the meaning leg of a rebuilt index is learned behind, on its own time)
    for (const q of QUERIES) assert.deepEqual(answers(library, q, 'lexical'), answers(reference, q, 'lexical'), q);
    await library.close();
  }
});

test('damage its record cannot see, found by the start reading a changed transcript or writing the next snapshot, rebuilds the index', async () => {
  const root = corpusCopy();
  const reference = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {} });
  await reference.load();
  const transcripts = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(root, f));
  const largest = transcripts.reduce((a, b) => (statSync(a).size >= statSync(b).size ? a : b));
  // changed since the snapshot (its time only): a transcript holding a session, whose replacement reads the session's
  // terms during the start; and one holding none, read without touching the index, so that the damage is found by the
  // write of the next snapshot (which copies the term lists left in the file)
  for (const changed of [largest, transcripts.find((f) => f.endsWith('minimal-usage-only.jsonl'))!]) {
    const data = tempDir();
    await (await open(root, data)).library.close();
    const path = Persistence.snapshotPath(data);
    // every session's list of terms zeroed in place, the record of the writing matching the file as it is now
    const [at, length] = (snapshotHeader(readFileSync(path)).header.sections as Record<string, [number, number]>).docTerms;
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(length), 0, length, at);
    closeSync(fd);
    const info = statSync(path);
    writeFileSync(`${path}.written`, `${info.size} ${info.mtimeMs} ${info.ino}`);
    const later = new Date(statSync(changed).mtimeMs + 60_000);
    utimesSync(changed, later, later);
    const { library, logger } = await open(root, data);
    // (a warm start writes what it read once things are quiet, not before its load ends: the write is asked for here)
    if (changed !== largest) await library.saveSnapshot();
    await answersComeBack(library);
    assert.ok(
      logger.lines.some((l) => l.includes('snapshot discarded') && l.includes('an index array is damaged')),
      logger.lines.join('\n'),
    );
    for (const q of QUERIES) assert.deepEqual(answers(library, q, 'lexical'), answers(reference, q, 'lexical'), q);
    await library.close();
    // and the snapshot written after the rebuild is whole: a start from it gives the same answers
    const again = await open(root, data);
    assert.ok(!again.logger.lines.some((l) => l.includes('snapshot discarded')), again.logger.lines.join('\n'));
    for (const q of QUERIES) assert.deepEqual(answers(again.library, q, 'lexical'), answers(reference, q, 'lexical'), q);
    await again.library.close();
  }
});
