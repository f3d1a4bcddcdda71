/**
 * A first load in bounded memory: the snapshot takes over what the index holds in memory as the load goes (written
 * as one merged segment), and a load that still finds the heap nearly full stops at a clear point, keeps what it has,
 * says why in every answer, and resumes on the next start.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openCore } from '../../src/core/library/open.js';
import { CHECKPOINT_SPACING_MS, LoadGuard } from '../../src/core/library/memory-guard.js';
import { MemoryLogger } from '../../src/core/log.js';
import { SearchIndex, type Scored } from '../../src/core/index/engine.js';
import { readSnapshot, writeSnapshot } from '../../src/core/store/snapshot.js';
import { tempDir, writeSessionCopies } from '../helpers.js';

/** What an index restored from the snapshot at `path` answers to each of `queries`. */
async function restoredScores(path: string, queries: string[][]): Promise<Scored[][]> {
  const contents = await readSnapshot(path, 'k');
  assert.ok(contents, 'the snapshot reads back');
  try {
    const restored = SearchIndex.fromState(contents.index);
    return queries.map((q) => restored.score(q));
  } finally {
    await contents.handle.close();
  }
}

const SAMPLE = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';

test('a load whose heap stays nearly full stops at a commit, answers from what it read and says why, then resumes on the next start', async () => {
  const root = writeSessionCopies(SAMPLE, 150, 3);
  const data = tempDir();
  const limit = 1000;
  let commits = 0;
  const logger = new MemoryLogger();
  // the heap looks nearly full from the second commit on, even after a collection
  const heap = () => ({ used: ++commits >= 2 ? 900 : 100, limit });
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger, dataDir: data, env: {}, heap, heapCollected: heap });
  await library.load();
  const read = library.sessions.size;
  assert.ok(read > 0 && read < 150, `stopped after ${read} sessions`);
  assert.equal(library.indexing.complete, false);
  assert.match(library.indexing.stopped ?? '', /memory ran short \(0 MB of the 0 MB heap limit in use\) after \d+ of 150 transcript files.*max-old-space-size/);
  assert.ok(logger.lines.some((l) => l.startsWith('warn indexing stopped: memory ran short')));
  const answer = library.search('sessions', { limit: 5 });
  assert.equal(answer.indexing?.stopped, library.indexing.stopped, 'every answer says it is partial, and why');
  assert.ok(existsSync(join(data, 'index', 'snapshot.bin')), 'what was read is kept');
  await library.close();

  const resumed = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {} });
  await resumed.load();
  assert.equal(resumed.indexing.filesTotal, 150 - read, 'the next start reads only what the stopped load had not');
  assert.equal(resumed.indexing.stopped, undefined);
  assert.equal(resumed.sessions.size, 150);
  assert.equal(resumed.search('sessions', { limit: 5 }).indexing, undefined);
  await resumed.close();
});

test('a load hands the index to the snapshot whenever it holds more than its budget: memory does not grow with the history', async () => {
  const root = writeSessionCopies(SAMPLE, 150, 3);
  const data = tempDir();
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {}, checkpointBytes: 1 });
  let written = 0;
  await library.load((p) => {
    if (existsSync(join(data, 'index', 'snapshot.bin')) && p.files < p.totalFiles) written++;
  });
  assert.ok(written > 0, 'written before the end of the load');
  // after each commit the postings went to the file, as one segment: memory holds the per-term tables, not the postings
  const segments = library.index.exportState().segments;
  assert.equal(segments.length, 1);
  assert.ok(!(segments[0].docs instanceof Int32Array) && !(segments[0].freqs instanceof Uint32Array), 'postings on disk');
  assert.equal(library.search('codebase', { limit: 200 }).results.length, 150);
  await library.close();
});

test('a snapshot writes the segments as one, without removed documents, and the restored index ranks as the one in memory', async () => {
  const index = new SearchIndex();
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
  for (let i = 0; i < 300; i++) {
    const text = words.filter((_, k) => (i + k) % 3 === 0 || (i * k) % 7 === 1).join(' ');
    index.add(`d${i}`, { topic: i % 10 === 0 ? 'gamma topic' : '', content: [text, `doc${i}`], messages: [`beta ${i}`] }, i);
    if (i % 30 === 29) index.seal(); // several segments, as a live index has
  }
  for (let i = 0; i < 300; i += 7) index.remove(`d${i}`);
  index.add('d14', { topic: 'replaced', content: ['alpha alpha theta'], messages: [] }, 999);
  const path = join(tempDir(), 'snapshot.bin');
  const state = index.exportState();
  assert.ok(state.segments.length > 1);
  const changes = index.changeCount;
  const written = await writeSnapshot(path, 'k', state, [], []);
  assert.equal(written.arrays.segments.length, 1, 'one merged segment');
  const queries = [['alpha'], ['beta', 'gamma'], ['theta', 'zeta', 'doc21'], ['replaced'], ['doc14'], ['doc7']];
  const before = queries.map((q) => index.score(q));
  assert.ok(index.useSnapshotArrays(changes, written.arrays), 'unchanged while written: the file takes the arrays over');
  assert.deepEqual(
    queries.map((q) => index.score(q)),
    before,
  );
  assert.deepEqual(await restoredScores(path, queries), before);
  written.arrays.close();
});

test('a snapshot holds the index as it was when its write began, whatever the index took and answered meanwhile', async () => {
  const index = new SearchIndex();
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
  for (let i = 0; i < 200; i++) {
    index.add(`d${i}`, { topic: '', content: [words.filter((_, k) => (i + k) % 3 === 0).join(' '), `doc${i}`], messages: [] }, i);
    if (i % 20 === 19) index.seal();
  }
  for (let i = 0; i < 200; i += 9) index.remove(`d${i}`);
  const queries = [['alpha'], ['beta', 'gamma'], ['theta', 'doc21'], ['doc18'], ['omega']];
  const before = queries.map((q) => index.score(q));
  const state = index.exportState();
  const changes = index.changeCount;
  // while it is written, a live index takes new transcripts and answers queries: each query seals what was added into
  // a segment of its own, and once there are many the newest are merged
  const path = join(tempDir(), 'snapshot.bin');
  const writing = writeSnapshot(path, 'k', state, [], []);
  for (let i = 0; i < 40; i++) {
    index.add(`n${i}`, { topic: '', content: [`omega alpha new${i}`], messages: [] }, 500 + i);
    index.remove(`d${i * 3 + 1}`);
    assert.ok(index.score(['omega']).length > 0);
  }
  const written = await writing;
  assert.equal(index.useSnapshotArrays(changes, written.arrays), false, 'changed while written: the index keeps its own arrays');
  written.arrays.close();
  assert.deepEqual(await restoredScores(path, queries), before);
});

test('postings larger than a piece are written, read back from the file and written again whole', async () => {
  // 100,000 documents of 24 terms: 2.4 million postings, more than one piece of the writer (4 MB) and one chunk read
  // back from the file (8 MB), each piece's memory used again for the next
  const index = new SearchIndex();
  const vocabulary = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
  for (let d = 0; d < 100_000; d++) {
    const words = Array.from({ length: 24 }, (_, k) => vocabulary[(d * 7 + k * 131 + ((d * k) % 97)) % vocabulary.length]);
    index.add(`d${d}`, { topic: '', content: [words.join(' ')], messages: [] }, d);
  }
  for (let d = 0; d < 100_000; d += 11) index.remove(`d${d}`);
  const queries = [['w0'], ['w1', 'w2s'], [vocabulary[4999]], [vocabulary[1234], vocabulary[77]], ['w3c', 'w9']];
  const first = join(tempDir(), 'snapshot.bin');
  const written = await writeSnapshot(first, 'k', index.exportState(), [], []);
  const once = await readSnapshot(first, 'k');
  assert.ok(once);
  // the restored index reads its postings from the file; changed, it is written again from there and from memory
  const restored = SearchIndex.fromState(once.index);
  written.arrays.close();
  for (let d = 100_000; d < 100_300; d++) restored.add(`d${d}`, { topic: '', content: [`w0 w1 ${vocabulary[d % 5000]}`], messages: [] }, d);
  for (let d = 5; d < 100_000; d += 13) restored.remove(`d${d}`);
  const expected = queries.map((q) => restored.score(q));
  const second = join(tempDir(), 'snapshot.bin');
  const again = await writeSnapshot(second, 'k', restored.exportState(), [], []);
  assert.deepEqual(await restoredScores(second, queries), expected);
  again.arrays.close();
  await once.handle.close();
});

test('a load writes for its postings budget at most once a minute, for heap pressure at once, and exactly as a named budget says', async () => {
  let now = 0;
  const limit = 2 ** 33;
  let used = 1;
  const heap = () => ({ used, limit });
  const guard = new LoadGuard({ heap, heapCollected: heap }, () => now);
  let saves = 0;
  const save = async () => void saves++;
  const commit = (at: number) => ((now = at), guard.afterCommit(true, 1e12, save, 1, 10));
  await commit(1_000);
  assert.equal(saves, 0, 'the budget passed a second after the last write: not yet');
  await commit(CHECKPOINT_SPACING_MS + 1);
  assert.equal(saves, 1);
  await commit(CHECKPOINT_SPACING_MS + 2_000);
  assert.equal(saves, 1);
  used = 0.6 * limit; // past CHECKPOINT_SHARE of the limit
  await commit(CHECKPOINT_SPACING_MS + 3_000);
  assert.equal(saves, 2, 'the heap pressed: at once');
  used = 1;
  const named = new LoadGuard({ heap, heapCollected: heap, checkpointBytes: 1 }, () => now);
  now += 10;
  await named.afterCommit(true, 2, save, 1, 10);
  assert.equal(saves, 3, 'a budget named in the options is kept exactly');
});
