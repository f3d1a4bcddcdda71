/**
 * Words that are also the names of JavaScript's own object properties (`constructor`, `__proto__`, `prototype`,
 * `toString`, ...) are words like any other, wherever they come from: a search for `constructor` (as common in a coding
 * conversation as any word) failed with "w.join is not a function". And a transcript cannot use them to reach into the
 * process: a Copilot Chat operation log with a `__proto__` path changes no object but the session's.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { silentLogger } from '../../src/core/log.js';
import { applyMutation } from '../../src/core/ingest/sources/copilot-chat.js';
import { htmlText } from '../../src/core/ingest/sources/gemini-takeout.js';
import { tempDir, writeCodeArchitect } from '../helpers.js';

/** Every own property name of Object.prototype and Function.prototype, as typed and as the tokenizer folds it. */
const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype), 'prototype'])];

let library: LibraryCore;
before(async () => {
  const root = tempDir();
  NAMES.forEach((name, i) =>
    writeCodeArchitect(root, `2025-03-${String((i % 27) + 1).padStart(2, '0')}`, `object-word-${i}`, [
      { role: 'user', content: `Why does ${name} misbehave in the quorvantic widget?` },
      { role: 'assistant', content: `Because ${name} is looked up on the prototype; the quorvantic widget shadows it.` },
    ]),
  );
  library = openCore({ roots: [{ source: 'codearchitect', path: root }], logger: silentLogger, env: {} });
  await library.load();
});
after(() => library.close());

test('a word that names a property of every JavaScript object finds its session in every mode, alone, with other words and as part of an identifier', () => {
  for (const name of NAMES) {
    const word = name.toLowerCase().replace(/^_+|_+$/g, '');
    for (const query of [name, `${name} quorvantic`, `"${name} misbehave"`, `${name}_widget`])
      for (const mode of ['hybrid', 'lexical', 'semantic'] as const) {
        const answer = library.search(query, { mode, limit: 5 });
        if (query.endsWith('_widget')) continue; // (answered without an error is what is asked of an identifier no session holds)
        if (mode === 'semantic') continue; // (the model by meaning is not learned on so few sessions: answered is enough)
        assert.ok(
          answer.results.some((r) => r.matchedSnippets.some((s) => s.toLowerCase().includes(word))),
          `${query} (${mode}): ${JSON.stringify(answer.results.map((r) => r.topic))}`,
        );
      }
    const blocks = library.searchContext(name, { limit: 3, threshold: 0 });
    assert.ok(blocks.results.length > 0, `search_context ${name}`);
  }
});

test('a Copilot Chat operation log cannot reach Object.prototype or swap an object’s prototype', () => {
  const state: { v: unknown } = { v: { requests: [{ message: { text: 'hello' } }] } };
  for (const k of [
    ['__proto__', 'polluted'],
    ['constructor', 'prototype', 'polluted'],
    ['requests', '__proto__', 'polluted'],
    ['requests', 0, '__proto__'],
  ])
    for (const kind of [1, 2]) applyMutation(state, { kind, k, v: ['yes'] });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(([] as unknown as Record<string, unknown>).polluted, undefined);
  const requests = (state.v as { requests: object[] }).requests;
  assert.equal(Object.getPrototypeOf(requests[0]), Object.prototype);
  assert.deepEqual(state.v, { requests: [{ message: { text: 'hello' } }] });
  // and what a log may do, it still does
  applyMutation(state, { kind: 1, k: ['requests', 0, 'message', 'text'], v: 'changed' });
  applyMutation(state, { kind: 2, k: ['requests'], v: [{ message: { text: 'second' } }] });
  assert.deepEqual(state.v, { requests: [{ message: { text: 'changed' } }, { message: { text: 'second' } }] });
});

test('an HTML entity named like an object property stays as written', () => {
  assert.equal(htmlText('<p>a &constructor; b &amp; c &toString; d</p>'), 'a &constructor; b & c &toString; d');
});
