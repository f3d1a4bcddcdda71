/** The sessions the relevance set is judged on (../shared/corpus), loaded once the same way by every candidate. */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { silentLogger } from '../../src/core/log.js';

export const RELEVANCE_DIR = dirname(fileURLToPath(import.meta.url));
const CORPUS = resolve(RELEVANCE_DIR, '..', '..', '..', 'shared', 'corpus');

export type Kind = 'known' | 'topic' | 'question' | 'exact' | 'forms' | 'none';
export interface RelevanceQuery {
  id: string;
  kind: Kind;
  query: string;
  rel: [string, number][];
}
export interface RelevanceFile {
  queries: RelevanceQuery[];
}

export const ROOTS = [
  { source: 'codearchitect', path: join(CORPUS, 'codearchitect', 'sessions') },
  { source: 'claude-code', path: join(CORPUS, 'claude-code') },
  { source: 'codex', path: join(CORPUS, 'codex') },
  { source: 'aider', path: join(CORPUS, 'aider') },
] as const;

export async function loadCorpus(): Promise<LibraryCore> {
  const library = openCore({ roots: ROOTS.map((r) => ({ ...r })), logger: silentLogger, env: {}, parseThreads: 0 });
  await library.load();
  await library.semantic.settled();
  return library;
}
