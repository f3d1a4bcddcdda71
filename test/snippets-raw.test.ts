/** Snippets cut from the few turns a raw archive line points at equal those cut from the whole parsed session. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SessionLibrary } from '../src/core/library.js';
import { MemoryLogger } from '../src/core/log.js';
import { corpusRoots, tempDir } from './helpers.js';

const QUERIES = ['test', 'error handling', 'readme', 'typescript config', 'database migration', 'install', 'claude', 'function return value', 'websocket', 'TODO app localStorage', 'api key', 'build failed', 'python', 'git commit message', '"npm install"', 'file'];

test('search answers from archived sessions (raw lines with a turn layout) equal answers from sessions held in memory', async () => {
  const data = tempDir();
  const writer = new SessionLibrary({ roots: corpusRoots, logger: new MemoryLogger(), dataDir: data, env: {} });
  await writer.load();
  await writer.close();
  // A new library restores the snapshot: every session's turns are on disk, in its archive line.
  const restored = new SessionLibrary({ roots: corpusRoots, logger: new MemoryLogger(), dataDir: data, env: {} });
  await restored.load();
  const memory = new SessionLibrary({ roots: corpusRoots, logger: new MemoryLogger(), env: {} });
  await memory.load();
  for (const q of QUERIES) {
    for (const options of [{ limit: 10 }, { limit: 10, role: 'user' as const }]) {
      const a = restored.search(q, options).results.map((r) => [r.id, r.matchedSnippets, r.snippetTurnIds]);
      const b = memory.search(q, options).results.map((r) => [r.id, r.matchedSnippets, r.snippetTurnIds]);
      assert.deepEqual(a, b, `${q} ${JSON.stringify(options)}`);
    }
  }
  await restored.close();
});
