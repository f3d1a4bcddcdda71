/** Snippets cut from the few turns a raw archive line points at equal those cut from the whole parsed session. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { corpusRoots, tempDir } from '../helpers.js';
import fc from 'fast-check';
import { chooseSnippetTurns, type TurnSource } from '../../src/core/index/snippet-turns.js';
import { parseQuery } from '../../src/core/index/query.js';
import { turnCount, type TurnKind } from '../../src/core/model.js';
import { readRawSession } from '../../src/core/store/session-layout.js';
import { LAYOUT_FIELDS } from '../../src/core/store/archive.js';
import type { SourceRoot } from '../../src/core/ingest/sources/registry.js';

const QUERIES = [
  'test',
  'error handling',
  'readme',
  'typescript config',
  'database migration',
  'install',
  'claude',
  'function return value',
  'websocket',
  'TODO app localStorage',
  'api key',
  'build failed',
  'python',
  'git commit message',
  '"npm install"',
  'file',
  // literals: sessions holding them as typed are found in the archive line's bytes, parsing only the turns that may
  '--read',
  '--edit-format',
  'get_input',
  'EditBlockCoder',
  'aider/io.py',
  'TAGS_CACHE',
  "SyntaxError: Unexpected number '182'",
];

/** The same roots loaded twice: restored from a data folder (every session's turns on disk, in its archive line) and held in memory. */
async function archivedAndInMemory(roots: SourceRoot[]): Promise<{ restored: LibraryCore; memory: LibraryCore }> {
  const data = tempDir();
  const writer = openCore({ roots, logger: new MemoryLogger(), dataDir: data, env: {} });
  await writer.load();
  await writer.close();
  const restored = openCore({ roots, logger: new MemoryLogger(), dataDir: data, env: {} });
  await restored.load();
  const memory = openCore({ roots, logger: new MemoryLogger(), env: {} });
  await memory.load();
  return { restored, memory };
}

/** One line of a Claude Code transcript. */
function claudeRecord(sessionId: string, uuid: string, type: 'user' | 'assistant', content: unknown): string {
  const message = type === 'user' ? { role: 'user', content } : { id: `m-${uuid}`, role: 'assistant', content };
  return `${JSON.stringify({ type, uuid, sessionId, cwd: '/p', timestamp: '2026-03-01T10:00:00Z', message })}\n`;
}

/** A Claude Code session in `root`: the user's prompt, then one command whose output is `output`. */
function promptAndOutput(root: string, id: string, prompt: string, output: string): void {
  writeFileSync(
    join(root, `${id}.jsonl`),
    claudeRecord(id, 'a', 'user', prompt) +
      claudeRecord(id, 'b', 'assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make' } }]) +
      claudeRecord(id, 'c', 'user', [{ type: 'tool_result', tool_use_id: 't1', content: output }]),
  );
}

test('search answers from archived sessions (raw lines with a turn layout) equal answers from sessions held in memory', async () => {
  const { restored, memory } = await archivedAndInMemory(corpusRoots);
  for (const q of QUERIES) {
    for (const options of [{ limit: 10 }, { limit: 10, role: 'user' as const }]) {
      const a = restored.search(q, options).results.map((r) => [r.id, r.matchedSnippets, r.snippetTurnIds]);
      const b = memory.search(q, options).results.map((r) => [r.id, r.matchedSnippets, r.snippetTurnIds]);
      assert.deepEqual(a, b, `${q} ${JSON.stringify(options)}`);
    }
  }
  await restored.close();
});

test('a word found only after more than a MB of tool output still gets its snippet, from archived and from in-memory sessions', async () => {
  const root = tempDir();
  const id = '33333333-4444-4555-8666-777777777777';
  const rec = (uuid: string, type: 'user' | 'assistant', content: unknown): string => claudeRecord(id, uuid, type, content);
  const filler = 'lorem ipsum dolor sit amet '.repeat(60_000);
  writeFileSync(
    join(root, `${id}.jsonl`),
    rec('a', 'user', 'run the build please') +
      rec('b', 'assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make' } }]) +
      rec('c', 'user', [{ type: 'tool_result', tool_use_id: 't1', content: filler }]) +
      rec('d', 'assistant', [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'make test' } }]) +
      rec('e', 'user', [{ type: 'tool_result', tool_use_id: 't2', content: `then quuxfailure in the linker ${filler}` }]),
  );
  const roots = [{ source: 'claude-code' as const, path: root }];
  const { restored, memory } = await archivedAndInMemory(roots);
  for (const library of [restored, memory]) {
    const [hit] = library.search('quuxfailure').results;
    assert.ok(hit?.matchedSnippets[0]?.includes('quuxfailure in the linker'), JSON.stringify(hit));
  }
  await restored.close();
});

test('a session of thousands of turns (a layout longer than the first read of its line) is read turn by turn from its archive', async () => {
  const root = tempDir();
  const id = '44444444-4444-4555-8666-777777777777';
  const lines: string[] = [];
  for (let n = 0; n < 3_000; n++)
    lines.push(claudeRecord(id, `u${n}`, n % 2 ? 'assistant' : 'user', n === 2_901 ? 'the zorblax gauge reads high' : `step ${n} done`));
  writeFileSync(join(root, `${id}.jsonl`), lines.join(''));
  const { restored, memory } = await archivedAndInMemory([{ source: 'claude-code' as const, path: root }]);
  const session = [...restored.sessions.values()][0];
  // its line in the archive entry of its transcript (the entry's first line is the entry's own)
  const entry = restored.archive!.entryPath(session.file);
  const bytes = readFileSync(entry);
  const start = bytes.indexOf(10) + 1;
  const raw = readRawSession(entry, [start, bytes.indexOf(10, start) + 1 - start], session.id);
  assert.ok(raw, 'its archive line opens with its layout');
  assert.equal(raw.layout.length / LAYOUT_FIELDS, turnCount(session));
  assert.ok(turnCount(session) > 2_500, `${turnCount(session)} turns`);
  raw.close();
  const snippets = (library: LibraryCore): string[] => library.search('zorblax gauge', { limit: 1 }).results[0]?.matchedSnippets ?? [];
  assert.ok(snippets(restored)[0]?.includes('zorblax gauge reads high'), JSON.stringify(snippets(restored)));
  assert.deepEqual(snippets(restored), snippets(memory));
  await restored.close();
});

test('a literal after a newline, with backslashes or quotes, in tool output or typed by the user: the same order from archived sessions as from memory', async () => {
  const root = tempDir();
  const session = (n: number, prompt: string, output: string): void => promptAndOutput(root, `44444444-4444-4555-8666-00000000000${n}`, prompt, output);
  session(1, 'run the frobnicate build', 'usage:\n--frobnicate-mode <m>\n  C:\\tools\\ld.exe said "--quoted-flag"');
  session(2, 'add a --frobnicate-mode switch to the frobnicate build', 'ok');
  session(3, 'frobnicate mode docs', 'see --frobnicate-mode-extra and xC:\\tools\\ld.exe');
  const roots = [{ source: 'claude-code' as const, path: root }];
  const { restored, memory } = await archivedAndInMemory(roots);
  const ids = (library: typeof memory, q: string): string[] => library.search(q, { limit: 10 }).results.map((r) => r.id.slice(-1));
  for (const library of [restored, memory]) {
    assert.deepEqual(ids(library, '--frobnicate-mode').slice(0, 2), ['2', '1'], 'typed by the user, then printed after a newline');
    assert.equal(ids(library, 'C:\\tools\\ld.exe')[0], '1', 'backslashes as typed; not inside a longer word');
    assert.equal(ids(library, '--quoted-flag')[0], '1', 'inside quotes JSON escapes');
  }
  for (const q of ['--frobnicate-mode', 'C:\\tools\\ld.exe', '--quoted-flag', 'frobnicate_mode']) assert.deepEqual(ids(restored, q), ids(memory, q), q);
  await restored.close();
});

test('the snippet chooser finds the same words and literals (flags, identifiers, paths) in JSON text (escapes kept) as in the text itself, and in its UTF-8 bytes read one to a character', () => {
  const pieces = [
    'n',
    'u',
    't',
    'u0001',
    'word',
    'Word',
    'é',
    'café',
    '—',
    ' ',
    '\n',
    '\t',
    '\u0001',
    '"',
    '\\',
    '\\n',
    'x\\',
    '/',
    'ſ',
    'K',
    '\u212a',
    '--word-n',
    'Word_U',
    'C:\\word',
    '最',
    '新',
    '\u{1d400}',
    '😀',
    'ä',
    'Я',
  ];
  const turnText = fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((p) => p.join(''));
  const kinds = fc.constantFrom<TurnKind>('conversation', 'tool', 'file');
  fc.assert(
    fc.property(
      fc.array(fc.tuple(turnText, kinds), { minLength: 1, maxLength: 12 }),
      fc.subarray(['n', 'u', 'word', 'u0001', 'café', 'k', 's', 't', 'x', '--word-n', 'word_u', 'c:\\word', '最新'], { minLength: 1 }),
      (turns, words) => {
        const query = parseQuery(words.join(' '));
        const source = (escaped: boolean, bytes: boolean): TurnSource => {
          const text = (i: number): string => (escaped ? JSON.stringify(turns[i][0]).slice(1, -1) : turns[i][0]);
          return {
            count: turns.length,
            kind: (i) => turns[i][1],
            role: () => 'user',
            textLength: (i) => turns[i][0].length,
            text,
            ...(bytes ? { utf8Bytes: (i: number) => Buffer.from(text(i)).toString('latin1') } : {}),
            escaped,
          };
        };
        const plain = chooseSnippetTurns(source(false, false), query);
        assert.deepEqual(chooseSnippetTurns(source(true, false), query), plain);
        assert.deepEqual(chooseSnippetTurns(source(true, true), query), plain);
        assert.deepEqual(chooseSnippetTurns(source(false, true), query), plain);
      },
    ),
    { numRuns: 2000, seed: 20261130 },
  );
});

test('several literals: sessions holding all of them first, those whose user typed more of them before; the same at every limit, archived or in memory', async () => {
  const root = tempDir();
  const session = (n: number, prompt: string, output: string): void => promptAndOutput(root, `55555555-4444-4555-8666-00000000000${n}`, prompt, output);
  session(1, 'why does the alpha build fail', 'error: --alpha-mode is unset in beta_gamma.py');
  session(2, 'try the alpha build with --alpha-mode on', 'beta_gamma.py: ok');
  session(3, 'run --alpha-mode against beta_gamma.py', 'ok');
  session(4, 'alpha beta gamma notes', 'usage: --alpha-mode <m>');
  session(5, 'look at beta_gamma.py for the alpha mode', 'ok');
  const { restored, memory } = await archivedAndInMemory([{ source: 'claude-code' as const, path: root }]);
  const ids = (library: typeof memory, limit: number): string[] => library.search('--alpha-mode beta_gamma.py', { limit }).results.map((r) => r.id.slice(-1));
  for (const library of [restored, memory]) {
    assert.deepEqual(ids(library, 10), ['3', '2', '1', '5', '4'], 'both typed, one typed, both printed; then one held, typed before printed');
    assert.deepEqual(ids(library, 2), ['3', '2']);
    assert.deepEqual(ids(library, 1), ['3']);
  }
  await restored.close();
});

test('the words the index says a session lacks are not looked for in its tool output: a session found by meaning alone has only its conversation read', () => {
  const turns: [string, TurnKind][] = [
    ['how do I speed up the nightly export', 'conversation'],
    ['sure, look at the job queue first', 'conversation'],
    ...Array.from({ length: 40 }, (_, k): [string, TurnKind] => [`tool output line ${k} `.repeat(2000), 'tool']),
    ['the queue drains at midnight', 'conversation'],
  ];
  const read: number[] = [];
  const source: TurnSource = {
    count: turns.length,
    kind: (i) => turns[i][1],
    role: (i) => (i === 0 ? 'user' : 'assistant'),
    textLength: (i) => turns[i][0].length,
    text: (i) => (read.push(i), turns[i][0]),
    escaped: false,
  };
  const query = parseQuery('zeppelin hangar');
  // without what the index knows, every tool output is scanned for the words (the first MB, then the rest)
  assert.deepEqual(chooseSnippetTurns(source, query), []);
  assert.equal(read.filter((i) => turns[i][1] === 'tool').length, 40);
  read.length = 0;
  assert.deepEqual(chooseSnippetTurns(source, query, { absent: new Set(['zeppelin', 'hangar']) }), []);
  assert.deepEqual(read, [0, 1, 42], 'the conversation only');
  // a word it holds is still found where it is
  assert.deepEqual(chooseSnippetTurns(source, parseQuery('queue zeppelin'), { absent: new Set(['zeppelin']) }), [1, 42]);
});

test('a long conversation is read past its first 256 KB only while its snippets lack a word the session holds', () => {
  const filler = (k: number): string => `reply ${k} about nothing much `.repeat(400); // about 12 KB a turn
  const conversation = (at: Record<number, string>): string[] => Array.from({ length: 60 }, (_, k) => at[k] ?? filler(k));
  const chosen = (texts: string[], q: string): { turns: number[]; read: number } => {
    let read = 0;
    const source: TurnSource = {
      count: texts.length,
      kind: () => 'conversation',
      role: (i) => (i % 2 ? 'assistant' : 'user'),
      textLength: (i) => texts[i].length,
      text: (i) => ((read = Math.max(read, i + 1)), texts[i]),
      escaped: false,
    };
    return { turns: chooseSnippetTurns(source, parseQuery(q)) ?? [], read };
  };
  const early = { 1: 'the flaky test again', 2: 'a flaky run', 3: 'the test suite', 4: 'flaky test twice', 5: 'one more test' };
  // every word seen in enough turns, past 256 KB: the rest is not read
  const stopped = chosen(conversation({ ...early, 50: 'the flaky test in CI, flaky test everywhere' }), 'flaky test');
  assert.ok(stopped.read < 30, `read ${stopped.read} turns`);
  assert.deepEqual(stopped.turns, [1, 2, 3, 4, 5]);
  // a word not yet seen: read on to it
  const late = chosen(conversation({ ...early, 55: 'and the zorblax gauge' }), 'flaky test zorblax');
  assert.ok(late.read > 55, `read ${late.read} turns`);
  assert.ok(late.turns.includes(55));
  // within the first 256 KB every turn is looked at
  const short = chosen(conversation({ ...early, 18: 'flaky test flaky test, the flaky test' }).slice(0, 20), 'flaky test');
  assert.equal(short.read, 20);
});

test('property: the highlight pattern marks exactly the whole words the query holds, in any case, however many words it has', async () => {
  const { highlightRanges, matcherFor } = await import('../../src/core/index/snippets.js');
  const word = fc.stringMatching(/^[abé]{1,4}$/);
  fc.assert(
    fc.property(
      fc.uniqueArray(word, { minLength: 1, maxLength: 12 }),
      fc.array(fc.tuple(fc.stringMatching(/^[abéABÉ1]{1,5}$/), fc.constantFrom(' ', '-', '.', '_', '/', '\n')), { maxLength: 40 }),
      (terms, pieces) => {
        const text = pieces.map(([w, sep]) => w + sep).join('');
        const query = { terms, phrases: [], excluded: [], excludedPhrases: [], literals: [], parts: new Map() };
        const wanted = new Set(terms);
        const expected = [...text.matchAll(/[\p{L}\p{N}]+/gu)].filter((m) => wanted.has(m[0].toLowerCase())).map((m) => [m.index, m.index + m[0].length]);
        assert.deepEqual(highlightRanges(text, matcherFor(query)!), expected);
        // the word edges are checked once around the words, not once per word (a check per word made V8 run the
        // pattern tens of times slower once it compiled it)
        assert.equal(matcherFor(query)!.source.split('(?<!').length - 1, 1);
      },
    ),
    { numRuns: 300 },
  );
});
