/**
 * Properties every answer must have, whatever the query: the same answer in any capitalisation; with no limit, every
 * session holding a query word; in the order of the score shown (ties newest first); `count` the results; each result
 * holding a query word or saying why it is there; kept to a size, the best that fit; a listing cut by its limit, its
 * newest, saying how many; any substring of text written without spaces finds its session.
 * Queries are drawn from the sessions' own words (real transcripts of the sample, and sessions written here with
 * identifiers in every form).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { loadCorpus } from '../../bench/relevance/corpus.js';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import type { SearchResponse } from '../../src/core/contracts.js';
import { CORPUS, tempDir, writeCodeArchitect, writeSessionCopies } from '../helpers.js';

let library: LibraryCore;
let words: string[] = [];
before(async () => {
  library = await loadCorpus();
  // words the sessions hold, common and rare (every 7th of the vocabulary, letters only)
  const all: string[] = [];
  library.index.forEachTerm((t, df) => {
    if (/^[a-z]{3,12}$/.test(t) && df >= 1) all.push(t);
  });
  words = all.filter((_, i) => i % 7 === 0);
});
after(() => library.close());

const NUM_RUNS = 60;
const query = (): fc.Arbitrary<string> =>
  fc
    .array(
      fc.integer({ min: 0, max: 1 << 30 }).map((i) => words[i % words.length]),
      { minLength: 1, maxLength: 4 },
    )
    .map((ws) => ws.join(' '));
const flipCase = (q: string, seed: number): string => [...q].map((c, i) => ((seed >> (i % 30)) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');
const shape = (r: SearchResponse) => r.results.map((x) => `${x.id} ${x.relevanceScore} ${x.matchCount}`);

test('any capitalisation of a query gives the same sessions in the same order, with the same scores', () => {
  fc.assert(
    fc.property(query(), fc.integer(), fc.constantFrom('hybrid' as const, 'lexical' as const), (q, seed, mode) => {
      const a = library.search(q, { mode, limit: 20 });
      const b = library.search(flipCase(q, seed), { mode, limit: 20 });
      assert.deepEqual(shape(b), shape(a), `${q} / ${flipCase(q, seed)}`);
      assert.equal(b.mode, a.mode);
    }),
    { numRuns: NUM_RUNS },
  );
});

test('with no limit every session holding a query word is in the answer, count is the results, and each says why it is there', () => {
  fc.assert(
    fc.property(query(), (q) => {
      const lexical = library.search(q, { mode: 'lexical' });
      const answer = library.search(q);
      const ids = new Set(answer.results.map((r) => r.id));
      for (const r of lexical.results) assert.ok(ids.has(r.id), `${q}: ${r.id} holds a query word but is missing`);
      for (const r of [lexical, answer]) assert.equal(r.count, r.results.length);
      for (const r of answer.results) {
        assert.ok(r.matchCount > 0 || r.foundBy === 'meaning', `${q}: ${r.id} holds no word and says nothing`);
        // the words it holds are named
        if (r.matchCount > 0) assert.ok(r.matchedTerms?.length, `${q}: ${r.id} holds words but names none`);
      }
      for (const r of lexical.results) assert.ok(r.matchCount > 0, `${q}: lexical ${r.id} holds no word`);
      // a limit keeps the best of the same ranking
      const top = library.search(q, { limit: 5 }).results.map((r) => r.id);
      assert.deepEqual(
        top,
        answer.results.slice(0, top.length).map((r) => r.id),
        `${q}: limit 5`,
      );
    }),
    { numRuns: NUM_RUNS },
  );
});

test("an answer kept to a size is the whole answer's best results that fit, and says how many matched", () => {
  fc.assert(
    fc.property(query(), fc.integer({ min: 0, max: 40_000 }), fc.constantFrom('hybrid' as const, 'lexical' as const), (q, maxChars, mode) => {
      const whole = library.search(q, { mode });
      const cut = library.search(q, { mode, maxChars });
      const size = (k: number): number => whole.results.slice(0, k).reduce((sum, r) => sum + JSON.stringify(r).length + 1, 0);
      assert.deepEqual(cut.results, whole.results.slice(0, cut.count), q);
      assert.ok(size(cut.count) <= maxChars, `${cut.count} results fit ${maxChars}`);
      if (cut.count === whole.count) return assert.equal(cut.matched, undefined);
      assert.ok(size(cut.count + 1) > maxChars, 'one more would not fit');
      assert.equal(cut.matched, whole.count);
      assert.ok(
        cut.note?.endsWith(
          `${whole.count} sessions match; the best ${cut.count} are here (an answer is kept small enough for MCP clients to read): ask again with a limit, more words, or a date, source or project filter to see others.`,
        ),
      );
    }),
    { numRuns: NUM_RUNS },
  );
});

test('a search with any limit is the best of the whole answer, and says how many matched when it leaves some out', () => {
  const sources = [undefined, ...new Set([...library.sessions.values()].map((s) => s.source))];
  fc.assert(
    fc.property(
      query(),
      fc.integer({ min: 1, max: 40 }),
      fc.constantFrom('hybrid' as const, 'lexical' as const, 'semantic' as const),
      fc.constantFrom(...sources),
      (q, limit, mode, source) => {
        const whole = library.search(q, { mode, source });
        const cut = library.search(q, { mode, source, limit });
        assert.deepEqual(
          cut.results.map((r) => r.id),
          whole.results.slice(0, limit).map((r) => r.id),
          `${q} (${mode}, ${source}): limit ${limit}`,
        );
        assert.equal(whole.matched, undefined);
        assert.equal(cut.matched, whole.count > limit ? whole.count : undefined, `${q} (${mode}, ${source}): limit ${limit} of ${whole.count}`);
        assert.equal(cut.note, whole.note, 'a limit alone adds no note');
      },
    ),
    { numRuns: NUM_RUNS * 2 },
  );
});

test('a listing with any limit is the newest of the whole listing, and says how many there are when it leaves some out', () => {
  const sources = [undefined, ...new Set([...library.sessions.values()].map((s) => s.source))];
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 400 }), fc.constantFrom(...sources), (limit, source) => {
      const whole = library.list({ source });
      const cut = library.list({ source, limit });
      assert.deepEqual(cut.sessions, whole.sessions.slice(0, limit));
      assert.equal(cut.count, cut.sessions.length);
      assert.equal(whole.matched, undefined);
      assert.equal(cut.matched, whole.count > limit ? whole.count : undefined);
    }),
    { numRuns: NUM_RUNS },
  );
});

test('results are in the order of the score they show, ties newest first, in every mode', () => {
  fc.assert(
    fc.property(
      query(),
      fc.constantFrom('hybrid' as const, 'lexical' as const, 'semantic' as const),
      fc.option(fc.integer({ min: 1, max: 30 })),
      (q, mode, limit) => {
        const results = library.search(q, { mode, limit: limit ?? undefined }).results;
        results.forEach((r, i) => {
          assert.ok(r.relevanceScore >= 0 && r.relevanceScore <= 1, `${q}: ${r.relevanceScore}`);
          if (i === 0) return;
          const prev = results[i - 1];
          assert.ok(prev.relevanceScore >= r.relevanceScore, `${q} (${mode}): ${prev.relevanceScore} before ${r.relevanceScore} at ${i}`);
          if (prev.relevanceScore === r.relevanceScore) assert.ok(prev.date >= r.date, `${q} (${mode}): a tie at ${i} not newest first`);
        });
      },
    ),
    { numRuns: NUM_RUNS },
  );
});

test('a limit keeps the newest of a tie on the shown score however deep it runs, whatever the order the sessions were read in', async () => {
  // 150 copies of one transcript: the same words, so the same score; started a minute apart, and read oldest first
  const sample = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';
  const started = (i: number): string => new Date(Date.UTC(2025, 8, 2, 0, i)).toISOString();
  const root = writeSessionCopies(sample, 150, 1, {
    edit: (text, i) => text.replaceAll('2025-09-03T00:47:19.293Z', started(i)),
    mtime: (i) => 1_700_000_000 - i * 60,
  });
  const copies = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {} });
  await copies.load();
  await copies.semantic.settled(); // (a model learned: hybrid fuses, rather than ranking by words alone)
  try {
    for (const q of ['codebase', 'analyzing codebase'])
      for (const mode of ['hybrid', 'lexical'] as const) {
        const whole = copies.search(q, { mode });
        // (a word alone is looked for as typed, by words; two are fused with meaning in hybrid)
        assert.deepEqual([whole.count, whole.mode], [150, q.includes(' ') ? mode : 'lexical'], q);
        let deep = 0;
        for (const limit of [1, 10, 30, 100]) {
          const cut = copies.search(q, { mode, limit });
          assert.deepEqual(
            cut.results.map((r) => r.id),
            whole.results.slice(0, limit).map((r) => r.id),
            `${q} (${mode}): limit ${limit}`,
          );
          // (the tie the limit cuts runs on more than 20 past it)
          if (whole.results[limit - 1].relevanceScore === whole.results[limit + 20].relevanceScore) deep++;
        }
        // (ranked by words, every copy scores the same; fused, each its own rank)
        if (whole.mode === 'lexical') assert.ok(deep > 0, `${q} (${mode}): a deep tie is cut`);
      }
  } finally {
    await copies.close();
  }
});

test('any substring of Japanese text finds its session, with snippets and highlights on it', () => {
  const japanese = [...library.sessions.values()].find((s) => /最新の状態/.test(s.topic));
  assert.ok(japanese, 'the sample holds a Japanese session');
  const runs = library.turns
    .all(japanese)
    .flatMap((t) => t.text.match(/[\u3040-\u30ff\u4e00-\u9fff]{4,}/g) ?? [])
    .slice(0, 200);
  assert.ok(runs.length > 3);
  fc.assert(
    fc.property(fc.constantFrom(...runs), fc.nat(), fc.integer({ min: 2, max: 8 }), (run, at, length) => {
      const start = at % (run.length - 1);
      const piece = run.slice(start, start + length);
      if ([...piece].length < 2) return;
      const answer = library.search(piece, { limit: 1000 });
      const hit = answer.results.find((r) => r.id === japanese.id);
      assert.ok(hit, `${piece} does not find the session`);
      const quoted = library.search(`"${piece}"`, { limit: 1000 });
      assert.ok(
        quoted.results.some((r) => r.id === japanese.id),
        `"${piece}" does not find it`,
      );
    }),
    { numRuns: NUM_RUNS },
  );
  const exact = library.search('最新の状態にアップデートしてください');
  assert.equal(exact.results[0]?.id, japanese.id);
  const snippet = exact.results[0].matchedSnippets.findIndex((s) => s.includes('最新の状態にアップデートしてください'));
  assert.ok(snippet >= 0, exact.results[0].matchedSnippets.join(' | '));
  const [from, to] = exact.results[0].snippetHighlights[snippet][0];
  assert.equal(exact.results[0].matchedSnippets[snippet].slice(from, to), '最新の状態にアップデートしてください');
  assert.ok(exact.results[0].topicHighlights.length > 0, 'the title is highlighted');
  for (const q of ['最新', 'アップデート', '分析']) assert.ok(library.search(q).count > 0, q);
});

test('an identifier in any form finds the others, the form typed first; its parts alone are not a match', async () => {
  const root = tempDir();
  // identifiers drawn at random, each written in one session per form; and a session holding only its first part
  const names = fc.sample(fc.tuple(fc.stringMatching(/^[a-z]{4,7}$/), fc.stringMatching(/^[a-z]{4,7}$/)), { numRuns: 8, seed: 33 });
  const forms = (a: string, b: string): Record<string, string> => ({
    snake: `${a}_${b}`,
    kebab: `${a}-${b}`,
    camel: `${a}${b[0].toUpperCase()}${b.slice(1)}`,
    pascal: `${a[0].toUpperCase()}${a.slice(1)}${b[0].toUpperCase()}${b.slice(1)}`,
    joined: `${a}${b}`,
  });
  names.forEach(([a, b], n) => {
    for (const [form, text] of Object.entries(forms(a, b)))
      writeCodeArchitect(root, '2026-01-01', `s${n}-${form}`, [{ role: 'user', content: `please look at ${text} in the handler` }]);
    writeCodeArchitect(root, '2026-01-01', `s${n}-part`, [{ role: 'user', content: `the ${a} is fine` }]);
  });
  // Russian from a real transcript of the sample, Chinese and Korean written here
  const russian = readFileSync(join(CORPUS, 'copilot-chat', 'export', 'in-progress-chat.export.json'), 'utf8').match(
    /[\u0400-\u04ff]+(?: [\u0400-\u04ff]+){3,}/,
  )![0];
  writeCodeArchitect(root, '2026-01-02', 'russian', [{ role: 'user', content: russian }]);
  writeCodeArchitect(root, '2026-01-02', 'chinese', [{ role: 'user', content: '我们应该使用数据库连接池来处理高并发请求。' }]);
  writeCodeArchitect(root, '2026-01-02', 'korean', [{ role: 'user', content: '데이터베이스 연결 풀을 사용합시다' }]);
  const lib = openCore({ roots: [{ source: 'codearchitect', path: root }], logger: new MemoryLogger(), env: {}, parseThreads: 0 });
  await lib.load();
  try {
    const only = (q: string): string[] => lib.search(q).results.map((r) => r.topic);
    for (const word of russian.split(' ').filter((w) => w.length > 3)) assert.deepEqual(only(word.toUpperCase()), ['russian'], word);
    for (const q of ['数据库', '连接池', '高并发请求', '"数据库连接池"', '使用数据']) assert.deepEqual(only(q), ['chinese'], q);
    for (const q of ['데이터베이스', '연결', '사용']) assert.deepEqual(only(q), ['korean'], q);
    names.forEach(([a, b], n) => {
      const every = Object.keys(forms(a, b)).map((f) => `s${n}-${f}`);
      for (const [form, typed] of Object.entries(forms(a, b))) {
        const answer = lib.search(typed);
        const topics = answer.results.map((r) => r.topic);
        assert.deepEqual([...topics].sort(), [...every].sort(), `${typed}: ${topics.join()}`);
        // as typed first (camel, pascal and joined are one word to a case-blind reader: any of them first)
        if (form === 'snake' || form === 'kebab') assert.equal(topics[0], `s${n}-${form}`, `${typed} first`);
        assert.deepEqual(shape(lib.search(typed.toUpperCase())), shape(answer), `${typed} upper-cased`);
      }
    });
  } finally {
    await lib.close();
  }
});
