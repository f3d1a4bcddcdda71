/**
 * The semantic leg: sessions described in other words than they used are found by meaning (judged queries of
 * bench/relevance, whose best-graded session must come first), exact queries stay lexical, and the learned model is
 * kept in the data folder so that a restart searches by meaning at once; a damaged file is learned again.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { decodeSemantic, encodeSemantic } from '../../src/core/semantic/semantic-file.js';
import { Persistence } from '../../src/core/store/persistence.js';
import { loadCorpus, RELEVANCE_DIR } from '../../bench/relevance/corpus.js';
import { corpusRoots, tempDir } from '../helpers.js';
import { eventually } from '../eventually.js';

let library: LibraryCore;
const judgments = JSON.parse(readFileSync(join(RELEVANCE_DIR, 'judgments.json'), 'utf8')) as Record<string, Record<string, number>>;
before(async () => {
  library = await loadCorpus();
});
after(() => library.close());

test('sessions described in other words come first by words and meaning together (judged queries)', () => {
  assert.equal(library.semantic.state.status, 'ready');
  for (const [id, query] of [
    ['q04', 'how does the repo map get cached here?'],
    ['k07', 'label on the progress bar while the repository is being scanned'],
    ['q12', 'how do I run the tests?'],
  ]) {
    const answer = library.search(query, { limit: 10 });
    assert.equal(answer.mode, 'hybrid');
    const top = answer.results[0];
    assert.equal(top && judgments[id][top.id], 3, `${query}: first ${top?.id}`);
  }
});

test('what the user asked, by stem, brings the session meant and its copy to the top (judged queries)', () => {
  for (const [id, query] of [
    ['k06', 'how our own walk of the tree compares with the files git itself tracks'],
    ['k08', 'test that our product name shows up in the http headers sent to the LLM provider'],
  ]) {
    const top = library.search(query, { limit: 10 }).results.slice(0, 2);
    assert.deepEqual(
      top.map((r) => judgments[id][r.id]),
      [3, 3],
      `${query}: ${top.map((r) => r.id).join(', ')}`,
    );
  }
});

test('mode: semantic ranks by meaning alone; exact queries (flags, phrases, error messages) stay lexical', () => {
  const semantic = library.search('label on the progress bar while the repository is being scanned', { limit: 5, mode: 'semantic' });
  assert.equal(semantic.mode, 'semantic');
  assert.equal(semantic.results.length, 5);
  assert.ok(
    semantic.results.every((r) => r.matchedSnippets.length > 0),
    'every result shows a snippet, even without the words',
  );
  assert.equal(library.search('--analytics-disable', { limit: 5 }).mode, 'lexical');
  assert.equal(library.search('"repo map" cache', { limit: 5 }).mode, 'lexical');
  assert.equal(library.search("SyntaxError: Unexpected number '182'", { limit: 5 }).mode, 'lexical');
  assert.equal(library.search('repo map cache', { limit: 5, mode: 'lexical' }).mode, 'lexical');
});

test('search_context at its threshold answers as if it read every candidate session, reading only those that could pass', () => {
  for (const q of ['when did we decide to use postgres', 'how does the repo map get cached here?', 'prompt caching', 'analytics opt out']) {
    const all = library.searchContext(q, { limit: 100_000, threshold: 0 });
    for (const threshold of [0.7, 0.5, 0.3, 0.1]) {
      const strict = library.searchContext(q, { limit: 100_000, threshold });
      assert.deepEqual(
        strict.results,
        all.results.filter((b) => b.score >= threshold),
        `${q} at ${threshold}`,
      );
    }
    const sessions = (threshold: number): number => new Set(library.searchContext(q, { limit: 100_000, threshold }).results.map((b) => b.sessionId)).size;
    assert.ok(sessions(0.1) > sessions(0.7), 'a lower threshold reaches more sessions');
  }
});

test('the learned model is kept with the snapshot: a restart searches by meaning at once; a damaged file is learned again', async () => {
  const data = tempDir();
  const open = async (): Promise<{ lib: LibraryCore; logger: MemoryLogger }> => {
    const logger = new MemoryLogger();
    const lib = openCore({ roots: corpusRoots, logger, env: {}, dataDir: data, parseThreads: 0 });
    await lib.load();
    return { lib, logger };
  };
  const first = await open();
  await first.lib.semantic.settled();
  assert.equal(first.lib.semantic.state.status, 'ready');
  const query = 'usage metrics plugin for the other coding agent';
  const before = first.lib.search(query, { limit: 5 }).results.map((r) => r.id);
  // written as soon as it was learned, alone: a process killed now (an MCP client gives its server 4 s) keeps it
  const file = Persistence.semanticPath(data);
  await eventually(() => {
    try {
      return decodeSemantic(readFileSync(file))?.model !== undefined;
    } catch {
      return false;
    }
  }, 'the model file written at once');
  const killed = await open();
  assert.equal(killed.lib.semantic.state.status, 'ready', 'a restart after a kill searches by meaning at once');
  await killed.lib.close();
  await first.lib.saveSnapshot();
  await first.lib.close();
  const bytes = readFileSync(file);
  const decoded = decodeSemantic(bytes);
  assert.ok(decoded?.model && decoded.vectors.ids.length > 20, 'the file holds the model and the vectors');
  assert.equal(decoded.asked.ids.length, decoded.bags.ids.length, 'and what each session asked');
  assert.deepEqual(encodeSemantic(decoded), bytes, 'read back and written again, the same bytes');

  const second = await open();
  assert.equal(second.lib.semantic.state.status, 'ready', 'ready as soon as the snapshot is restored, nothing learned');
  assert.deepEqual(
    second.lib.search(query, { limit: 5 }).results.map((r) => r.id),
    before,
  );
  await second.lib.close();

  const damaged = Buffer.from(bytes);
  damaged[damaged.length - 7] ^= 0x40;
  assert.equal(decodeSemantic(damaged), undefined, 'a flipped bit is caught by the checksum');
  writeFileSync(file, damaged);
  const third = await open();
  assert.ok(
    third.logger.lines.some((l) => l.includes('semantic.bin: unreadable')),
    third.logger.lines.join('\n'),
  );
  await third.lib.semantic.settled();
  assert.equal(third.lib.semantic.state.status, 'ready', 'learned again from the sessions');
  await third.lib.close();
});
