/** The index's own invariants: top-k equals a full sort, removal and replacement, compaction. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SearchIndex } from '../../src/core/index/engine.js';
import { ranksOf, topK } from '../../src/core/index/top-k.js';
import { forEachToken, tokenize } from '../../src/core/index/tokenize.js';
import { excluder } from '../../src/core/ingest/exclude.js';

test('top-k returns exactly the first k of a full ranking, and ranksOf the place of any document in it', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 5 })), { maxLength: 300 }),
      fc.integer({ min: 1, max: 40 }),
      fc.array(fc.integer({ min: 0, max: 320 }), { maxLength: 60 }),
      (rows, k, asked) => {
        const scores = Float64Array.from(rows.map((r) => r[0]));
        const recency = Float64Array.from(rows.map((r) => r[1]));
        // candidates in another order than their numbers: equal scores and dates keep the candidates' order
        const items = Int32Array.from(rows.map((_, i) => i).reverse());
        const full = [...items].sort((a, b) => scores[b] - scores[a] || recency[b] - recency[a]);
        assert.deepEqual(topK(items, items.length, k, scores, recency), full.slice(0, k));
        const ranks = ranksOf(items, items.length, new Set(asked), scores, recency);
        const expected = new Map(full.flatMap((doc, rank) => (asked.includes(doc) ? [[doc, rank]] : [])));
        assert.deepEqual(
          [...ranks].sort((a, b) => a[0] - b[0]),
          [...expected].sort((a, b) => a[0] - b[0]),
        );
      },
    ),
  );
});

test('replacing and removing documents changes what is found', () => {
  const index = new SearchIndex();
  index.add('a', { topic: 'alpha', content: ['shared words here'], messages: [] });
  index.add('b', { topic: 'beta', content: ['shared words there'], messages: [] });
  assert.deepEqual(
    index
      .score(['shared'])
      .map((r) => r.key)
      .sort(),
    ['a', 'b'],
  );
  index.add('a', { topic: 'alpha', content: ['different now'], messages: [] });
  assert.deepEqual(
    index.score(['shared']).map((r) => r.key),
    ['b'],
  );
  index.remove('b');
  assert.deepEqual(index.score(['shared']), []);
  assert.equal(index.size, 1);
  assert.equal(index.idf('shared'), 0);
});

test('thousands of removals compact the postings without losing live documents', () => {
  const index = new SearchIndex();
  for (let i = 0; i < 3000; i++) index.add(`d${i}`, { topic: `t${i}`, content: [`common word${i % 7}`], messages: [] });
  for (let i = 0; i < 2500; i++) index.remove(`d${i}`);
  const found = index.score(['common'], { limit: 1000 });
  assert.equal(found.length, 500);
  assert.ok(found.every((r) => Number(r.key.slice(1)) >= 2500));
  assert.equal(index.score(['word3']).length, [...Array(500).keys()].filter((i) => (i + 2500) % 7 === 3).length);
});

test('a live index that seals after every change keeps few segments, merges small ones, and ranks like a bulk build', () => {
  const doc = (i: number) => ({ topic: `topic${i % 13}`, content: [`common word${i % 7} extra${i % 3}`], messages: [`tool${i % 5}`] });
  const live = new SearchIndex();
  for (let i = 0; i < 2000; i++) live.add(`d${i}`, doc(i));
  live.seal();
  const big = live.exportState().segments[0].docs.length;
  for (let i = 2000; i < 2400; i++) {
    live.add(`d${i}`, doc(i));
    if (i % 3 === 0) live.remove(`d${i - 1000}`);
    live.score(['common']); // a query seals what was added
  }
  const segments = live.exportState().segments;
  assert.ok(segments.length <= 12, `${segments.length} segments`);
  assert.equal(segments[0].docs.length, big, 'the big segment was never merged again');
  const bulk = new SearchIndex();
  for (let i = 0; i < 2400; i++) if (!(i >= 1000 && i < 1400 && (i + 1000) % 3 === 0)) bulk.add(`d${i}`, doc(i));
  for (const q of [['common'], ['word3', 'extra1'], ['topic5', 'tool2'], ['word6']]) {
    assert.deepEqual(
      live.score(q, { limit: 50 }).map((r) => [r.key, r.score.toFixed(9)]),
      bulk.score(q, { limit: 50 }).map((r) => [r.key, r.score.toFixed(9)]),
      q.join(' '),
    );
  }
});

test('fields are weighted: topic 3, content 2, messages 1', () => {
  const index = new SearchIndex();
  index.add('topic', { topic: 'needle', content: ['x'], messages: [] });
  index.add('content', { topic: 'x', content: ['needle'], messages: [] });
  index.add('messages', { topic: 'x', content: ['x'], messages: ['needle'] });
  assert.deepEqual(
    index.score(['needle']).map((r) => r.key),
    ['topic', 'content', 'messages'],
  );
});

test('tokens: letters and digits of any script, lower-cased; punctuation and underscores split; long runs dropped', () => {
  // text written without spaces is cut into overlapping pairs (a lone character alone), as Lucene's CJK analyzer does
  assert.deepEqual(tokenize('Привет МИР, 日本語 and 𝒜bc max_map_tokens ünïcødé 한국어 分'), [
    'привет',
    'мир',
    '日本',
    '本語',
    '𝒜bc',
    'max',
    'map',
    'tokens',
    'ünïcødé',
    '한국',
    '국어',
    '分',
  ]);
  assert.deepEqual(tokenize('Node.jsの設定'), ['node', 'js', 'の設', '設定'], 'a script change ends a word');
  // the index also holds an identifier joined by `_` or `-` whole; numbers, dates and hex are not joined
  const indexed: string[] = [];
  forEachToken('web_socket web-socket 2024-08-19 e5f6-a1b2 v2_api', (t) => indexed.push(t), false, true);
  assert.deepEqual(indexed, ['web', 'socket', 'websocket', 'web', 'socket', 'websocket', '2024', '08', '19', 'e5f6', 'a1b2', 'v2', 'api', 'v2api']);
  assert.deepEqual(tokenize(`short ${'x'.repeat(41)} end`), ['short', 'end']);
  assert.deepEqual(tokenize('the fix for the bug'), ['fix', 'bug'], 'stop words are not indexed');
  assert.deepEqual(tokenize('the fix', true), ['the', 'fix']);
});

test('exclude globs match names anywhere or paths by their tail', () => {
  const skip = excluder(['**/scratch/**', '*.export.json', 'tmp/old?.jsonl']);
  assert.equal(skip('/home/u/.claude/projects/scratch/a.jsonl'), true);
  assert.equal(skip('/x/chat.export.json'), true);
  assert.equal(skip('/x/tmp/old1.jsonl'), true);
  assert.equal(skip('/x/tmp/old12.jsonl'), false);
  assert.equal(skip('/home/u/.claude/projects/real/a.jsonl'), false);
  assert.equal(excluder([])('/anything'), false);
});

test('a load commits in groups that end where the folder changes, bounded in files and bytes whatever the folder', async () => {
  const { commitBatches, COMMIT_MAX_BYTES } = await import('../../src/core/ingest/file-state.js');
  const state = (file: string) => ({ file, size: 1, mtimeMs: 0, ino: 0 });
  // (sizes in parts of the most a commit holds, as measured when it was 96 MB)
  const mb = COMMIT_MAX_BYTES / 96;
  const files = [
    ...Array.from({ length: 600 }, (_, i) => state(`/r/a/${i}.jsonl`)),
    ...Array.from({ length: 10 }, (_, i) => state(`/r/a/sub/${i}.jsonl`)),
    ...Array.from({ length: 300 }, (_, i) => state(`/r/b/${i}.jsonl`)),
    // one folder of thousands of transcripts (a Claude Code project) is many commits, not one
    ...Array.from({ length: 12_000 }, (_, i) => state(`/r/c/${i}.jsonl`)),
    ...Array.from({ length: 20 }, (_, i) => state(`/r/d/${i}.jsonl`)),
    ...Array.from({ length: 20 }, (_, i) => state(`/r/e/${i}.jsonl`)),
    // few files, but many bytes: the group ends at its folder
    ...Array.from({ length: 3 }, (_, i) => ({ ...state(`/r/f/${i}.jsonl`), size: Math.round(30 * mb) })),
    ...Array.from({ length: 5 }, (_, i) => state(`/r/g/${i}.jsonl`)),
    // large files in one folder: a group never holds more than COMMIT_MAX_BYTES (a single larger file is its own)
    ...Array.from({ length: 7 }, (_, i) => ({ ...state(`/r/h/${i}.jsonl`), size: Math.round(40 * mb) })),
    { ...state('/r/h/huge.jsonl'), size: Math.round(300 * mb) },
    ...Array.from({ length: 2 }, (_, i) => ({ ...state(`/r/h/z${i}.jsonl`), size: Math.round(40 * mb) })),
  ];
  const batches = [...commitBatches('/r', files)];
  const sizes = batches.map((b) => b.length);
  assert.deepEqual(sizes, [400, 200, 310, ...Array.from({ length: 30 }, () => 400), 43, 7, 2, 2, 1, 1, 2]);
  assert.deepEqual(batches.flat(), files, 'every file once, in order');
  for (const b of batches) assert.ok(b.length === 1 || b.reduce((n, f) => n + f.size, 0) <= COMMIT_MAX_BYTES);
});

/** An array read a range at a time, as a snapshot's arrays are; counts what was read. */
function paged(values: Uint32Array | Int32Array) {
  const array = {
    reads: 0,
    length: values.length,
    read(from: number, to: number) {
      array.reads++;
      return values.slice(from, to);
    },
    readAll: () => values.slice(),
    *chunks() {
      yield new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    },
  };
  return array;
}

test('an index whose postings and term lists stay on disk answers, removes and adds as one held in memory', () => {
  const docs = ['shared alpha', 'shared beta', 'shared gamma', 'other words'];
  const source = new SearchIndex();
  docs.forEach((text, i) => source.add(`d${i}`, { topic: '', content: [text], messages: [] }));
  const { docTerms, segments, ...rest } = source.exportState();
  const termLists = paged(docTerms as Uint32Array);
  const onDisk = segments.map((seg) => ({ ...seg, docs: paged(seg.docs as Int32Array), freqs: paged(seg.freqs as Uint32Array) }));
  const restored = SearchIndex.fromState({ ...rest, segments: onDisk, docTerms: termLists });
  assert.deepEqual(
    restored
      .score(['shared'])
      .map((r) => r.key)
      .sort(),
    ['d0', 'd1', 'd2'],
  );
  assert.ok(onDisk[0].docs.reads > 0, 'postings were read from the paged array');
  restored.remove('d0');
  assert.ok(termLists.reads > 0, "a removal reads the document's term list");
  restored.add('d9', { topic: '', content: ['shared late'], messages: [] });
  const direct = new SearchIndex();
  docs.forEach((text, i) => direct.add(`d${i}`, { topic: '', content: [text], messages: [] }));
  direct.remove('d0');
  direct.add('d9', { topic: '', content: ['shared late'], messages: [] });
  assert.deepEqual(restored.score(['shared', 'alpha']), direct.score(['shared', 'alpha']));
  assert.equal(restored.idf('shared'), direct.idf('shared'));
  // what a snapshot writer is handed holds the same term lists, disk part then memory part
  const exported = restored.exportState().docTerms as { chunks(): Iterable<Uint8Array>; length: number };
  const bytes = Buffer.concat([...exported.chunks()].map((c) => Buffer.from(c)));
  assert.deepEqual(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4), direct.exportState().docTerms);
});

test('arrays that fail their check make complete() reject, and nothing is left unhandled', async () => {
  const source = new SearchIndex();
  source.add('a', { topic: 'x', content: ['y'], messages: [] });
  const { docTerms, ...rest } = source.exportState();
  const restored = SearchIndex.fromState({ ...rest, docTerms: docTerms as Uint32Array, verify: () => Promise.reject(new Error('damaged')) });
  await new Promise((resolve) => setTimeout(resolve, 10));
  await assert.rejects(restored.complete(), /damaged/);
});

test('a word said more than 65,535 times in one field counts once as a posting, and most', () => {
  const index = new SearchIndex();
  index.add('many', { topic: '', content: ['spam '.repeat(70_000), 'spam eggs'], messages: [] }, 1);
  index.add('few', { topic: '', content: ['spam eggs ham'], messages: [] }, 2);
  const state = index.exportState();
  assert.equal(
    state.segments.reduce((n, s) => n + s.docs.length, 0),
    5,
    'one posting per word and document',
  );
  assert.deepEqual(
    index.score(['spam']).map((s) => s.key),
    ['many', 'few'],
  );
});
