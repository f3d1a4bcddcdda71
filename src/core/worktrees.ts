/**
 * Git worktrees of one repository live in different folders; a project filter should find them all. A worktree's
 * `.git` is a file (`gitdir: <repo>/.git/worktrees/<name>`), which names the main checkout. Looked up once per folder.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

const cache = new Map<string, string>();

/** The main checkout of the repository `folder` belongs to (as a worktree or itself); the folder when unknown. */
export function repositoryRoot(folder: string): string {
  const cached = cache.get(folder);
  if (cached !== undefined) return cached;
  let result = folder;
  try {
    const dotGit = resolve(folder, '.git');
    if (statSync(dotGit).isFile()) {
      const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      const match = gitdir ? /^(.*)[\\/]\.git[\\/]worktrees[\\/][^\\/]+$/.exec(resolve(folder, gitdir)) : null;
      if (match) result = match[1];
    }
  } catch {
    // no checkout on disk (a deleted folder, another machine): the path itself is all we know
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(folder, result);
  return result;
}
