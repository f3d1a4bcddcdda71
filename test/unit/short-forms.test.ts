/**
 * Short forms: acronyms the sessions define, product names with and without their suffix, the common table; each
 * expands a query below the word typed and is shown as "also matched"; search_context scores a block by what the block
 * itself holds, the expansion included.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definedAcronyms, ShortForms } from '../../src/core/index/short-forms.js';
import { createLibrary } from '../../src/core/library.js';
import { MemoryLogger } from '../../src/core/log.js';
import type { Turn } from '../../src/core/model.js';
import { tempDir, writeCodeArchitect } from '../helpers.js';

const turn = (text: string, kind: Turn['kind'] = 'conversation'): Turn => ({ id: 't', role: 'user', kind, text });

test('acronyms defined in either order are found; initials must spell them; tool output is not read', () => {
  assert.deepEqual(definedAcronyms([turn('We sign JSON Web Tokens (JWT) for the API.')]), [['jwt', 'json web tokens']]);
  assert.deepEqual(definedAcronyms([turn('use JWT (JSON Web Token) here')]), [['jwt', 'json web token']]);
  assert.deepEqual(definedAcronyms([turn('Role-Based Access Control (RBAC) for admins')]), [['rbac', 'role-based access control']]);
  assert.deepEqual(definedAcronyms([turn('the cache layer (API) is slow')]), [], 'initials that do not spell it');
  assert.deepEqual(definedAcronyms([turn('JSON Web Tokens (JWT)', 'tool')]), []);
});

test('short forms both ways, product suffixes on and off, held by the vocabulary only', () => {
  const forms = new ShortForms([['rbac', 'role-based access control']]);
  const vocab = new Set(['postgresql', 'mongo', 'json', 'web', 'tokens', 'role', 'based', 'access', 'control', 'rbac', 'k8s']);
  const alt = (terms: string[]) => [...forms.alternatives(terms, (t) => vocab.has(t)).entries()].map(([i, a]) => [i, a.map((x) => x.text)]);
  assert.deepEqual(alt(['postgres']), [[0, ['postgresql']]]);
  assert.deepEqual(alt(['mongodb']), [[0, ['mongo']]]);
  assert.deepEqual(alt(['jwt']), [[0, ['json web tokens']]], 'the long form as the sessions write it (plural)');
  assert.deepEqual(alt(['kubernetes']), [[0, ['k8s']]]);
  assert.deepEqual(alt(['rbac']), [[0, ['role based access control']]], 'a learned acronym');
  assert.deepEqual(alt(['llm']), [], 'nothing the sessions do not hold (large language model)');
  assert.deepEqual(alt(['role', 'based', 'access', 'control']), [[0, ['rbac']]], 'a long form of several words in a row');
  assert.deepEqual(alt(['python']), [], 'a long form does not stand for a two-letter short one (py)');
});

test('a short form finds the session written in the long form, below the word typed; search_context scores blocks by what they hold', async () => {
  const root = tempDir();
  for (let i = 0; i < 6; i++)
    writeCodeArchitect(root, `2026-01-0${i + 1}`, `json-config-${i}`, [
      { role: 'user', content: `the package.json file has a broken json field, fix the json parse of config.json ${i}` },
      { role: 'assistant', content: 'I fixed the json in package.json and the tokens of the lexer.' },
    ]);
  writeCodeArchitect(root, '2026-01-08', 'auth', [
    { role: 'user', content: 'how should the API authenticate clients?' },
    { role: 'assistant', content: "Let's issue signed JSON Web Tokens with a short expiry and refresh them." },
  ]);
  writeCodeArchitect(root, '2026-01-09', 'jwt-library', [{ role: 'user', content: 'which JWT library should we pick?' }]);
  writeCodeArchitect(root, '2026-01-09', 'rbac-defined', [{ role: 'user', content: 'add Role-Based Access Control (RBAC) to the admin pages' }]);
  writeCodeArchitect(root, '2026-01-09', 'roles-later', [{ role: 'user', content: 'the role based access control check fails for editors' }]);
  const lib = createLibrary({ roots: [{ source: 'codearchitect', path: root }], logger: new MemoryLogger(), env: {}, parseThreads: 0 });
  await lib.load();
  try {
    const jwt = lib.search('JWT');
    assert.deepEqual(
      jwt.results.map((r) => r.topic),
      ['jwt-library', 'auth'],
    );
    assert.ok(jwt.alsoMatched?.includes('json web tokens'));
    // an acronym one session defines finds another that only writes it out
    assert.ok(lib.search('rbac').results.some((r) => r.topic === 'roles-later'));
    for (const q of ['JSON Web Tokens', 'JWT']) {
      const blocks = lib.searchContext(q, { limit: 5, threshold: 0 }).results;
      assert.match(blocks.find((b) => b.sessionName === 'auth')?.snippet ?? '', /JSON Web Tokens/, q);
      const auth = blocks.find((b) => b.sessionName === 'auth')!;
      assert.ok(
        blocks.filter((b) => b.sessionName.startsWith('json-config')).every((b) => b.score < auth.score),
        `${q}: ${blocks.map((b) => `${b.sessionName} ${b.score}`).join(', ')}`,
      );
    }
  } finally {
    await lib.close();
  }
});
