/** A library over a copy of the sample Claude Code transcripts, and what its users see: for the snapshot's tests. */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { LibraryOptions, LibraryCore } from '../src/core/library/open.js';
import { MemoryLogger } from '../src/core/log.js';
import { CORPUS, openTracked, tempDir } from './helpers.js';
import { eventually } from './eventually.js';

export const SESSION = '11111111-2222-4333-8444-555555555555';

export function corpusCopy(): string {
  const root = join(tempDir(), 'claude');
  cpSync(join(CORPUS, 'claude-code'), root, { recursive: true });
  return root;
}

export function record(text: string, i = 0): string {
  return `${JSON.stringify({ type: 'user', uuid: `u-${i}-${text}`, sessionId: SESSION, cwd: '/p', timestamp: '2026-03-01T10:00:00Z', message: { role: 'user', content: text } })}\n`;
}

export async function open(root: string, data: string, extra: Partial<LibraryOptions> = {}): Promise<{ library: LibraryCore; logger: MemoryLogger }> {
  const logger = new MemoryLogger();
  const library = openTracked({ roots: [{ source: 'claude-code', path: root }], logger, dataDir: data, env: {}, ...extra });
  await library.load();
  return { library, logger };
}

/** What a user sees for a query: ids, scores and snippets, whatever the library's history. */
export function answers(library: LibraryCore, query: string, mode?: 'lexical'): unknown {
  return library
    .search(query, { limit: 10, mode })
    .results.map((r) => ({ id: r.id, relevance: r.relevanceScore, snippets: r.matchedSnippets, deleted: r.sourceDeleted }));
}

/** Waits for a library whose index is being rebuilt to answer again, from the whole index (not partial). */
export function answersComeBack(library: LibraryCore): Promise<void> {
  return eventually(
    () => {
      try {
        const answer = library.search('test');
        return answer.count > 0 && answer.indexing === undefined;
      } catch {
        return false;
      }
    },
    'answers come back once the index is rebuilt',
    { timeoutMs: 60_000 },
  );
}

export const QUERIES = ['test', 'error handling', 'readme', '"npm install"', 'todo -write'];
