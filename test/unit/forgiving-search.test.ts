/**
 * Lexical search that forgives: other word forms, near spellings, words written together, code identifiers in any
 * style, flags and paths matched literally, and `-word` an exclusion only where it reads as one. The orders asserted
 * on the corpus are those of judged queries in bench/relevance (their best-graded sessions must come first).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { editDistance, expandTerms, FORM_WEIGHT, QUESTION_WORD_WEIGHT, type Vocabulary } from '../../src/core/index/expand.js';
import { parseQuery } from '../../src/core/index/query.js';
import type { LibraryCore } from '../../src/core/library/open.js';
import { loadCorpus, RELEVANCE_DIR } from '../../bench/relevance/corpus.js';

const vocabulary = (dfs: Record<string, number>): Vocabulary => ({
  docFrequency: (t) => dfs[t] ?? 0,
  forEachTerm: (visit) => Object.entries(dfs).forEach(([t, df]) => visit(t, df)),
});

test('a dash is an exclusion only after a space and before a letter; flags, paths and identifiers are kept whole', () => {
  assert.deepEqual(parseQuery('--map-tokens').excluded, []);
  assert.deepEqual(parseQuery('--map-tokens').literals, ['--map-tokens']);
  // an identifier is one term, as the index holds it whole; its parts are not words of their own
  assert.deepEqual(parseQuery('--map-tokens').terms, ['maptokens']);
  assert.deepEqual(parseQuery('--map-tokens').parts, new Map([['maptokens', ['map', 'tokens']]]));
  assert.deepEqual(parseQuery('retry -backoff').excluded, ['backoff']);
  assert.deepEqual(parseQuery('gpt-4o -1').excluded, []);
  assert.deepEqual(parseQuery('open aider/io.py?').literals, ['aider/io.py']);
  assert.deepEqual(parseQuery("don't").literals, []);
  for (const form of ['WebSocket', 'websocket', 'web_socket', 'web-socket', 'WEB_SOCKET']) assert.deepEqual(parseQuery(form).terms, ['websocket'], form);
  assert.deepEqual(parseQuery('get_user_session').parts, new Map([['getusersession', ['get', 'user', 'session']]]));
  assert.deepEqual(parseQuery('APIConnectionError').terms, ['apiconnectionerror']);
  assert.deepEqual(parseQuery('EditBlockCoder').literals, ['EditBlockCoder'], 'a word typed alone is looked for as typed');
  assert.deepEqual(parseQuery('editblockcoder').literals, ['editblockcoder'], 'whatever its capitalisation');
  assert.deepEqual(parseQuery('`sessionId`').literals, ['sessionId']);
  assert.deepEqual(parseQuery('TypeScript build errors').literals, [], 'a product name in a sentence is a word');
  assert.deepEqual(parseQuery('--verbose').literals, ['--verbose'], 'a flag of one word');
  assert.deepEqual(parseQuery('retry -verbose').literals, []);
  // keywords (each word chosen) against a sentence: the fusion keeps a session holding every keyword first
  assert.equal(parseQuery('retry spinner Printed').terse, true);
  assert.equal(parseQuery('how do we retry the spinner').terse, undefined, 'a stop word: a sentence');
  assert.equal(parseQuery('spinner').terse, undefined, 'one word is a literal, not keywords');
});

test('expansion adds other forms of a word, near spellings of a word no session holds, and words written together', () => {
  const vocab = vocabulary({ leak: 3, leaks: 1, leaked: 2, websocket: 9, websockets: 1, posthog: 4, repomap: 5, repo: 7, map: 8, decorators: 2 });
  const [leaking] = expandTerms(['leaking'], vocab).slots;
  assert.deepEqual(leaking.alts.map((a) => a.term).sort(), ['leak', 'leaked', 'leaking', 'leaks']);
  assert.ok(leaking.alts.every((a) => a.weight === (a.term === 'leaking' ? 1 : FORM_WEIGHT)));
  const typo = expandTerms(['websoket', 'posthgo'], vocab);
  assert.deepEqual(typo.alsoMatched, ['websocket', 'posthog']);
  assert.deepEqual(expandTerms(['leak'], vocab).alsoMatched, [], 'a word sessions hold is not respelled');
  assert.deepEqual(
    expandTerms(['repo', 'map'], vocab).slots.map((s) => s.alts[0].term),
    ['repo', 'map', 'repomap'],
  );
  const question = expandTerms(['how', 'does', 'repomap'], vocab).slots;
  assert.equal(question[0].alts[0].weight, QUESTION_WORD_WEIGHT);
  assert.equal(expandTerms(['how'], vocab).slots[0].alts[0].weight, 1, 'a query of question words alone keeps them');
  assert.equal(editDistance('posthgo', 'posthog', 1), 1, 'a swap counts once');
  assert.equal(editDistance('kafka', 'posthog', 1), 2, 'stops once past the bound');
});

/** Optimal string alignment distance, the whole matrix and no bound: what `editDistance` must agree with. */
function alignment(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

test('a near spelling is found exactly when the two words are within the bound, whatever the words', () => {
  // words of a few letters (so that near ones are common), and of any characters; every bound a query uses
  const word = fc.oneof(fc.stringMatching(/^[abcd]{0,9}$/), fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 6 }));
  fc.assert(
    fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
      const exact = alignment(a, b);
      const bounded = editDistance(a, b, max);
      if (exact <= max) assert.equal(bounded, exact, `${a} / ${b}`);
      else assert.ok(bounded > max, `${a} / ${b}: ${bounded} within ${max}, the distance is ${exact}`);
    }),
    { numRuns: 3000 },
  );
  // a word longer than any above (the rows the function keeps between calls grow), then short ones again
  const long = 'x'.repeat(60);
  assert.equal(editDistance(`${long}ab`, `${long}ba`, 1), 1);
  assert.equal(editDistance(`${long}ab`, `${long}abc`, 2), 1);
  assert.equal(editDistance('ab', 'ba', 1), 1);
  assert.equal(editDistance('ab', 'ab', 0), 0);
});

test('near spellings are every word sessions hold within the bound, closest and commonest first, whatever the vocabulary', () => {
  // the vocabulary's words are the query word edited a few times (so near ones are common) and words of their own;
  // `ѡ` is counted with `a` (their codes differ by 1024), `é` is not a letter
  const letter = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'ѡ', 'é');
  const edit = fc.tuple(fc.constantFrom('change', 'add', 'drop', 'swap'), fc.nat(), letter);
  const edited = (word: string, edits: [string, number, string][]): string => {
    const w = [...word];
    for (const [kind, at, c] of edits) {
      const i = at % (w.length + 1);
      if (kind === 'change') w[Math.min(i, w.length - 1)] = c;
      else if (kind === 'add') w.splice(i, 0, c);
      else if (kind === 'drop') w.splice(i, 1);
      else if (i + 1 < w.length) [w[i], w[i + 1]] = [w[i + 1], w[i]];
    }
    return w.join('');
  };
  const query = fc.stringMatching(/^[abcde]{5,10}$/);
  const entry = fc.record({ edits: fc.option(fc.array(edit, { maxLength: 4 })), own: fc.array(letter, { maxLength: 11 }), df: fc.integer({ min: 1, max: 4 }) });
  fc.assert(
    fc.property(query, fc.array(entry, { maxLength: 30 }), (typed, entries) => {
      const dfs: Record<string, number> = {};
      for (const e of entries) dfs[e.edits ? edited(typed, e.edits) : e.own.join('')] = e.df;
      fc.pre(!dfs[typed]);
      const max = typed.length <= 7 ? 1 : 2;
      const near = Object.entries(dfs)
        .map(([t, df]) => ({ t, df, distance: alignment(typed, t) }))
        .filter((n) => n.df >= 2 && n.distance <= max)
        .sort((a, b) => a.distance - b.distance || b.df - a.df)
        .slice(0, 3);
      assert.deepEqual(
        expandTerms([typed], vocabulary(dfs)).alsoMatched,
        near.map((n) => n.t),
      );
    }),
    { numRuns: 2000 },
  );
});

let library: LibraryCore;
const judgments = JSON.parse(readFileSync(join(RELEVANCE_DIR, 'judgments.json'), 'utf8')) as Record<string, Record<string, number>>;
before(async () => {
  library = await loadCorpus();
});
after(() => library.close());

/** The first result of a judged query is one of its sessions graded 3. */
function bestFirst(id: string, query: string): void {
  const top = library.search(query, { limit: 10 }).results[0];
  assert.equal(top && judgments[id][top.id], 3, `${query}: first ${top?.id}`);
}

test('judged queries: a flag, a path, a dotted error, an identifier in camelCase and a misspelling find their session first', () => {
  bestFirst('e02', '--analytics-disable');
  bestFirst('e17', 'scripts/pip-compile.sh');
  bestFirst('e13', 'litellm.exceptions.APIConnectionError');
  bestFirst('f16', 'calculateAndShowTokensAndCost');
  bestFirst('f09', 'spiner');
  bestFirst('f07', 'translated into french');
  assert.deepEqual(library.search('spiner').alsoMatched, ['spinner']);
});

test('judged queries: an identifier printed by many logs and file reads finds the session where the user asked about it', () => {
  // send_completion is in tracebacks and file reads of a dozen sessions; one user asked to change it
  bestFirst('x22', 'send_completion');
  bestFirst('x12', 'max_map_tokens');
  bestFirst('x20', 'get_announcements');
  // so are class names typed alone, printed in the code and tracebacks of many sessions
  bestFirst('x23', 'ModelSettings');
  bestFirst('x08', 'IgnorantTemporaryDirectory');
  // flags of common words, printed by the help text and logs of a hundred sessions ranked above the one that added them
  bestFirst('y02', '--edit-format');
  bestFirst('y01', '--read');
  // an identifier held inside a longer one (`simple_send_with_retries`) holds it: every judged session (each says it in
  // a longer identifier) comes before those holding its words apart, though the index keeps the longer one whole
  const judged = Object.keys(judgments.y18);
  const top = library.search('send_with_retries', { limit: judged.length }).results.map((r) => r.id);
  assert.deepEqual([...top].sort(), [...judged].sort());
  // and their snippets show the flag, not the words it is made of
  for (const [query, shown] of [
    ['--read', /--read\b/],
    ['MockRepoMap', /MockRepoMap/],
  ] as const) {
    const results = library.search(query, { limit: 2 }).results;
    assert.ok(
      results.every((r) => shown.test(r.matchedSnippets[0] ?? '')),
      JSON.stringify(results.map((r) => r.matchedSnippets)),
    );
  }
  // a rarer word typed beside a literal is still where the snippets are cut
  const [both] = library.search('MockRepoMap max_map_tokens').results;
  assert.match(both.matchedSnippets.join(' '), /MockRepoMap/);
});

test('a query of only common words, or only of what to leave out, says so instead of answering nothing silently', () => {
  const answer = library.search('the and of');
  assert.equal(answer.count, 0);
  assert.match(answer.note ?? '', /only common words/);
  // a query that only leaves things out says that, not that its words are common
  for (const query of ['-orchestrator', '-"flaky test"', 'the -orchestrator']) {
    const left = library.search(query);
    assert.equal(left.count, 0, query);
    assert.match(left.note ?? '', /only says what to leave out: add a word that says what to look for/, query);
  }
});
