/**
 * A long load parses on other threads (ingest/parse-pool.ts): what it indexes must be exactly what parsing on the main
 * thread gives, for every source in the corpus, including what one file's parse leaves for fix-ups across files
 * (a Claude Code title given by a summary in another transcript).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import type { SourceRoot } from '../../src/core/ingest/sources/registry.js';
import { CORPUS, corpusRoots } from '../helpers.js';

const roots: SourceRoot[] = [
  ...corpusRoots,
  ...(['gemini', 'opencode', 'specstory', 'aider', 'copilot-chat', 'cursor'] as const).map((source) => ({ source, path: join(CORPUS, source) })),
];

async function load(parseThreads: number): Promise<{ library: LibraryCore; logger: MemoryLogger }> {
  const logger = new MemoryLogger();
  const library = openCore({ roots, logger, env: {}, parseThreads });
  await library.load();
  return { library, logger };
}

test('sessions parsed on a thread equal sessions parsed on the main thread, for every source; so do the answers', async () => {
  const [threads, main] = await Promise.all([load(1), load(0)]);
  const byId = (library: LibraryCore) =>
    [...library.sessions.values()].sort((a, b) => a.id.localeCompare(b.id)).map((s) => ({ ...s, turns: library.turns.all(s).map((t) => ({ ...t })) }));
  assert.ok(threads.logger.lines.includes('info parsing on 1 thread(s) beside indexing'), threads.logger.lines.join('\n'));
  assert.ok(!main.logger.lines.some((l) => l.includes('thread(s)')));
  const a = byId(threads.library);
  assert.ok(a.length > 50, `${a.length} sessions`);
  assert.deepEqual(a, byId(main.library));
  assert.ok(a.some((s) => s.source === 'claude-code' && s.topic.length > 0));
  // (each learns its model by meaning 2 s after its own load: both learn now, so neither ranks by words alone)
  await Promise.all([threads.library.semantic.settled(), main.library.semantic.settled()]);
  for (const query of ['error handling', 'readme', 'todo app', 'test']) assert.deepEqual(threads.library.search(query), main.library.search(query), query);
  // what a parse logs on a thread reaches the library's log
  assert.deepEqual(threads.logger.lines.filter((l) => l.startsWith('warn')).sort(), main.logger.lines.filter((l) => l.startsWith('warn')).sort());
  await Promise.all([threads.library.close(), main.library.close()]);
});
