/** The index snapshot and the writer lock: warm starts read only what changed, damage is detected, one writer at a time. */
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, test } from 'node:test';
import { openCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { Persistence } from '../../src/core/store/persistence.js';
import { turnCount } from '../../src/core/model.js';
import { closeTracked, copyId, heldOpen as held, tempDir, writeSessionCopies } from '../helpers.js';
import { QUERIES, SESSION, answers, corpusCopy, open, record } from '../snapshot-library.js';

afterEach(closeTracked);

for (const aside of [false, true])
  test(`a warm start restores the snapshot, reads only the files that changed, and answers like a cold build${aside ? ' (the roots walked on a thread of their own meanwhile)' : ''}`, async () => {
    await warmStart(aside);
  });

async function warmStart(aside: boolean): Promise<void> {
  const root = corpusCopy();
  const data = tempDir();
  const cold = await open(root, data);
  assert.ok(
    cold.logger.lines.some((l) => l.includes('snapshot written')),
    cold.logger.lines.join('\n'),
  );
  await cold.library.close();

  const files = readdirSync(join(root, 'claude-code-log'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'));
  const changed = join(root, 'claude-code-log', files[0]);
  const deleted = join(root, 'claude-code-log', files[1]);
  appendFileSync(changed, `${readFileSync(changed, 'utf8').endsWith('\n') ? '' : '\n'}${record('snapshotcatchup appended later')}`);
  rmSync(deleted);
  mkdirSync(join(root, 'new-project'));
  writeFileSync(join(root, 'new-project', `${SESSION}.jsonl`), record('brandnewfile after the snapshot'));

  // The reference: a build without a snapshot over the same files and a copy of the same archive.
  const referenceData = tempDir();
  cpSync(join(data, 'archive'), join(referenceData, 'archive'), { recursive: true });
  // the archive entry of an unchanged transcript changes after the snapshot (another process, a damaged disk): the
  // transcript is read again, whether the entry was stated by the walking thread or by this one
  const entryChanged = join(root, 'claude-code-log', files[2]);
  const changedEntry = cold.library.archive!.entryPath(entryChanged);
  appendFileSync(changedEntry, '\n');
  const damagedEntry = readFileSync(changedEntry);
  const warm = await open(root, data, { scanAside: aside });
  assert.ok(
    warm.logger.lines.some((l) => /snapshot of .* restored/.test(l)),
    warm.logger.lines.join('\n'),
  );
  // (the thread did the walk: it did not fall back to this one)
  assert.equal(
    warm.logger.lines.some((l) => l.includes('walked on the main thread')),
    false,
    warm.logger.lines.join('\n'),
  );
  const indexed = warm.logger.lines.findIndex((l) => /^info indexed \d+ sessions/.test(l));
  assert.ok(
    warm.logger.lines[indexed]?.includes(': 2 files read,'),
    `only the appended and the new file are read by the load\n${warm.logger.lines.join('\n')}`,
  );
  // then, the load complete, the transcript whose archive entry changed is read again, and archived anew
  const entryLine = warm.logger.lines.findIndex((l) => l.includes(`${entryChanged}: its archive entry changed since the snapshot; reading it again`));
  assert.ok(entryLine > indexed, warm.logger.lines.join('\n'));
  // (and only it: the appended transcript, archived anew by the load, is not read a second time)
  assert.deepEqual(
    warm.logger.lines.filter((l) => l.includes('its archive entry changed')),
    [warm.logger.lines[entryLine]],
  );
  assert.notDeepEqual(readFileSync(changedEntry), damagedEntry);
  assert.equal(warm.library.search('snapshotcatchup').count, 1);
  assert.equal(warm.library.search('brandnewfile').count, 1);
  const gone = [...warm.library.sessions.values()].filter((s) => s.file === deleted);
  assert.ok(gone.length > 0 && gone.every((s) => s.sourceDeleted), 'the deleted transcript stays, marked source deleted');

  const reference = await open(root, referenceData, { snapshot: false });
  // Each library learns its model by meaning 2 s after its load, and then ranks by meaning too: the warm one first when
  // the reference's build is slow (a busy machine). Both learn now, and are compared as a user finds them then.
  await Promise.all([warm.library.semantic.settled(), reference.library.semantic.settled()]);
  for (const q of QUERIES) assert.deepEqual(answers(warm.library, q), answers(reference.library, q), `answers for ${q}`);
  const some = [...reference.library.sessions.values()].slice(0, 5);
  for (const s of some) {
    const restored = await warm.library.get(s.id);
    assert.deepEqual(restored, await reference.library.get(s.id), `get ${s.id} reads its turns from the snapshot`);
  }
  assert.deepEqual(warm.library.list({ limit: 5 }), { ...reference.library.list({ limit: 5 }) });
}

test('one writer per data folder: a second library only reads, then takes over when the writer closes', async () => {
  const root = corpusCopy();
  const data = tempDir();
  const first = await open(root, data);
  assert.ok(first.library.persistence?.lock.held);
  writeFileSync(join(root, `${SESSION}.jsonl`), record('secondreader sees this'));
  const second = await open(root, data);
  assert.equal(second.library.persistence?.lock.held, false);
  assert.equal(second.library.search('secondreader').count, 1, 'a reader catches up by reading changed files itself');
  const entry = first.library.archive!.entryPath(join(root, `${SESSION}.jsonl`));
  assert.ok(!existsSync(entry), 'a reader does not write the archive');
  await first.library.close();
  await second.library.saveSnapshot();
  assert.ok(second.library.persistence?.lock.held, 'the reader became the writer');
  await second.library.close();
  const third = await open(root, data);
  assert.ok(
    third.logger.lines.some((l) => l.includes(': 0 files read,')),
    third.logger.lines.join('\n'),
  );
  assert.equal(third.library.search('secondreader').count, 1);
});

test('cancelled indexing keeps what was read, and the next start reads the rest', async () => {
  const root = corpusCopy();
  const data = tempDir();
  const logger = new MemoryLogger();
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger, dataDir: data, env: {} });
  const controller = new AbortController();
  let seen = 0;
  let total = 0;
  await library.load((p) => {
    seen = p.files;
    total = p.totalFiles;
    assert.ok(p.bytes <= p.totalBytes && p.totalBytes > 0);
    if (p.files === 5) controller.abort();
  }, controller.signal);
  assert.ok(seen >= 5 && seen < total, `stopped at ${seen} of ${total}`);
  assert.ok(
    logger.lines.some((l) => l.includes(`indexing cancelled after ${seen} of ${total} files`)),
    logger.lines.join('\n'),
  );
  const partial = library.sessions.size;
  await library.close();
  const next = await open(root, data);
  assert.ok(
    next.logger.lines.some((l) => l.includes(`: ${total - seen} files read,`)),
    next.logger.lines.join('\n'),
  );
  const reference = (await open(root, tempDir(), { snapshot: false, archive: false })).library;
  assert.ok(partial < reference.sessions.size);
  assert.equal(next.library.sessions.size, reference.sessions.size);
});

test('with an archive the snapshot does not repeat the turns; restored sessions read them from archive entries, even rewritten ones', async () => {
  const root = corpusCopy();
  const withArchive = tempDir();
  const withoutArchive = tempDir();
  await (await open(root, withArchive)).library.close();
  await (await open(root, withoutArchive, { archive: false })).library.close();
  const small = readFileSync(Persistence.snapshotPath(withArchive)).length;
  const whole = readFileSync(Persistence.snapshotPath(withoutArchive)).length;
  assert.ok(small < whole / 2, `snapshot ${small} bytes with an archive, ${whole} without`);

  const reader = await open(root, withArchive);
  const reference = (await open(root, tempDir(), { snapshot: false, archive: false })).library;
  // One session is left unread for the second half; every other one reads its turns from the archive.
  const target = [...reader.library.sessions.values()].find((s) => s.source === 'claude-code' && turnCount(s) > 2)!;
  for (const id of reference.sessions.keys()) if (id !== target.id) assert.deepEqual(await reader.library.get(id), await reference.get(id), `get ${id}`);

  // Another process rewrites the target's archive entry (its transcript grew): the position the reader restored is
  // stale, and the session is found in the entry by its id.
  const entry = reader.library.archive!.entryPath(target.file);
  const entryBefore = readFileSync(entry);
  await reader.library.persistence!.lock.releaseLock(); // let the other process be the writer
  const writer = await open(root, withArchive);
  appendFileSync(target.file, `${readFileSync(target.file, 'utf8').endsWith('\n') ? '' : '\n'}${record('rewrittenentry appended')}`);
  await writer.library.reloadFile(target.file);
  assert.ok(!readFileSync(entry).equals(entryBefore), 'the entry was rewritten');
  const turns = reader.library.turns.all(reader.library.sessions.get(target.id)!);
  assert.ok(turns.length >= turnCount(target), `turns still readable after the entry was rewritten (${turns.length})`);
  assert.ok(!reader.logger.lines.some((l) => l.includes('no longer in its archive entry') || l.includes('unreadable')), reader.logger.lines.join('\n'));
});

test('purging the archive forgets sessions whose transcript is gone and reads the others again', async () => {
  const root = corpusCopy();
  const data = tempDir();
  const files = readdirSync(join(root, 'claude-code-log'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'));
  const doomed = join(root, 'claude-code-log', files[0]);
  await (await open(root, data)).library.close();
  rmSync(doomed);
  const { library } = await open(root, data);
  const gone = [...library.sessions.values()].filter((s) => s.file === doomed).map((s) => s.id);
  assert.ok(gone.length > 0);
  await library.purgeArchive();
  for (const id of gone) assert.equal(library.sessions.has(id), false);
  const reference = (await open(root, tempDir(), { snapshot: false, archive: false })).library;
  assert.equal(library.sessions.size, reference.sessions.size);
  for (const id of [...reference.sessions.keys()].slice(0, 8)) assert.deepEqual(await library.get(id), await reference.get(id), `get ${id} after the purge`);
  await library.close();
  const next = await open(root, data);
  assert.equal(next.library.sessions.size, reference.sessions.size, 'the rewritten snapshot and archive load');
  for (const id of gone) assert.equal(next.library.sessions.has(id), false, 'purged sessions do not come back');
});

test('the postings stay in the snapshot file: a cold build hands them to disk, and a warm start reads only what queries touch', async () => {
  const root = corpusCopy();
  const data = tempDir();
  const { library: cold } = await open(root, data);
  // the build wrote its snapshot and now reads postings and term lists from it: memory keeps the small tables
  const held = cold.index.postingBytes;
  await cold.close();
  const { library: warm } = await open(root, data);
  assert.equal(warm.index.postingBytes, held);
  const reference = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {} });
  await reference.load();
  assert.ok(reference.index.postingBytes > held, `held in memory: ${reference.index.postingBytes} B by a library without a data folder, ${held} B with one`);
  assert.ok(
    warm.index.exportState().segments.every((seg) => !(seg.docs instanceof Int32Array) && !(seg.freqs instanceof Uint32Array)),
    'every posting segment is read from the file',
  );
  // by words (what reads the postings), then with meaning too once both have learned it (as in the test above)
  for (const q of QUERIES) assert.deepEqual(answers(warm, q, 'lexical'), answers(reference, q, 'lexical'), q);
  await Promise.all([warm.semantic.settled(), reference.semantic.settled()]);
  for (const q of QUERIES) assert.deepEqual(answers(warm, q), answers(reference, q), q);
  await warm.close();
});

test('a long first load writes the snapshot as it goes: a load killed halfway resumes from it and reads only the rest', async () => {
  // 150 sessions in three projects: three commits of the first load
  const root = writeSessionCopies('1af7fc5e-8455-4414-9ccd-011d40f70b2a', 150, 3);
  const data = tempDir();
  const snapshot = join(data, 'index', 'snapshot.bin');
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {}, checkpointMs: 0 });
  let written: Buffer | undefined;
  let copied = 0;
  await library.load((p) => {
    // the snapshot a load killed now would leave behind (its archive entries are there too)
    if (written || !existsSync(snapshot) || p.files === p.totalFiles) return;
    written = readFileSync(snapshot);
    copied = library.indexing.filesDone;
  });
  await library.close();
  assert.ok(written && copied > 0 && copied < 150, `copied after ${copied} files`);
  writeFileSync(snapshot, written);
  const resumed = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {} });
  const loading = resumed.load();
  await resumed.answerable;
  assert.equal(resumed.sessions.size, copied, 'answers at once from what the killed load had written');
  // a session the load has not reached yet is read at once when asked for by name: by get, export and info (resume)
  const ids = Array.from({ length: 150 }, (_, i) => `claude-code:${copyId(i)}`);
  const unread = ids.filter((id) => !resumed.sessions.has(id)).slice(-3);
  assert.equal(unread.length, 3);
  assert.equal((await resumed.info(unread[0])).id, unread[0]);
  assert.equal((await resumed.info(unread[0])).resumeCommand, `claude --resume ${unread[0].slice('claude-code:'.length)}`);
  assert.equal((await resumed.get(unread[1])).session?.id, unread[1]);
  assert.equal((await resumed.export(unread[2], 'md')).id, unread[2]);
  await loading;
  assert.equal(resumed.indexing.filesTotal, 150 - copied, 'reads only the files the killed load had not');
  assert.equal(resumed.sessions.size, 150);
  await resumed.close();
});

test('a snapshot whose write did not finish (its writer killed) is removed by the next writer, not left taking the disk', async () => {
  const root = corpusCopy();
  const data = tempDir();
  const first = await open(root, data);
  await first.library.close();
  const index = join(data, 'index');
  // what a writer killed during its write leaves: its file, named for its process, never renamed over the snapshot
  const left = join(index, 'snapshot.bin.4194301.1796400000000.tmp');
  writeFileSync(left, Buffer.alloc(2 * 1048576, 7));
  const second = await open(root, data);
  appendFileSync(join(root, 'codemie', 'projects', '-tmp-private', '4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl'), record('zqunfinishedx'));
  await second.library.reloadFile(join(root, 'codemie', 'projects', '-tmp-private', '4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl'));
  await second.library.saveSnapshot();
  assert.ok(!existsSync(left), readdirSync(index).join(', '));
  assert.deepEqual(
    readdirSync(index).filter((n) => n.endsWith('.tmp')),
    [],
  );
  assert.ok(
    second.logger.lines.some((l) => l.includes(`${left}: removed (2 MB of a snapshot whose write did not finish)`)),
    second.logger.lines.join('\n'),
  );
  await second.library.close();
  // the snapshot written in its place is whole
  const third = await open(root, data);
  assert.equal(third.library.search('zqunfinishedx').count, 1);
  await third.library.close();
});

test('a closed library holds no file of its data folder open, even a snapshot replaced a moment before', async () => {
  const data = tempDir();
  const { library } = await open(corpusCopy(), data);
  // each write replaces the file the sessions read their turns from; the replaced one is closed a little later
  await library.saveSnapshot();
  await library.saveSnapshot();
  assert.ok(held(data).length > 0, 'an open library reads from its snapshot');
  await library.close();
  assert.deepEqual(held(data), []);
});

test('a library closed while it rebuilds its index stops there: it writes nothing after, holds no file open and leaves the writer lock free', async () => {
  const root = corpusCopy();
  const data = tempDir();
  const { library, logger } = await open(root, data);
  // a rebuild (asked for, or after damage found while answering) is under way when the library is closed
  let stopped = false;
  const rebuilding = library.rebuild().finally(() => (stopped = true));
  await library.close();
  assert.ok(stopped, 'close waits for the rebuild to stop');
  await rebuilding;
  const closedAt = logger.lines.length;
  // and one asked for after close leaves the data folder alone (it is no longer this library's)
  const snapshot = join(data, 'index', 'snapshot.bin');
  assert.ok(existsSync(snapshot), 'the rebuild stopped short wrote what it had read');
  await library.rebuild();
  assert.ok(existsSync(snapshot), 'a rebuild after close discards nothing');
  await library.saveSnapshot().catch(() => undefined); // nor does a write asked for after it
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(held(data), [], 'no file of the data folder is open');
  assert.deepEqual(
    logger.lines.slice(closedAt).filter((l) => l.includes('snapshot written')),
    [],
    'no snapshot is written after close',
  );
  assert.ok(!existsSync(join(data, 'writer.lock')), 'the writer lock is free');
  // the next library is the writer: it writes its snapshot
  const next = await open(root, data);
  assert.ok(next.library.sessions.size > 0);
  const before = next.logger.lines.length;
  await next.library.saveSnapshot();
  assert.ok(
    next.logger.lines.slice(before).some((l) => l.includes('snapshot written')),
    next.logger.lines.join('\n'),
  );
  await next.library.close();
});

for (const aside of [false, true])
  test(`a session only the archive holds (its entry written after the snapshot, its transcript gone since) is found again at a warm start${aside ? ' (the roots walked on a thread)' : ''}`, async () => {
    const root = corpusCopy();
    const data = tempDir();
    await (await open(root, data)).library.close();
    // another data folder over the same transcripts and one more, whose entry is then found beside the snapshot's
    mkdirSync(join(root, 'later'));
    const later = join(root, 'later', `${SESSION}.jsonl`);
    writeFileSync(later, record('onlyinthearchive kept after its transcript'));
    const other = tempDir();
    const seen = await open(root, other);
    const entry = seen.library.archive!.entryPath(later);
    await seen.library.close();
    cpSync(entry, join(data, 'archive', 'v1', basename(entry)));
    rmSync(later);

    const warm = await open(root, data, { scanAside: aside });
    assert.ok(
      warm.logger.lines.some((l) => /snapshot of .* restored/.test(l)),
      warm.logger.lines.join('\n'),
    );
    const found = warm.library.search('onlyinthearchive').results;
    assert.equal(found.length, 1, warm.logger.lines.join('\n'));
    assert.equal(warm.library.sessions.get(found[0].id)?.sourceDeleted, true);
  });
