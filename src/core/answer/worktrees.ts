/**
 * Git worktrees of one repository live in different folders; a project filter should find them all. A worktree's
 * `.git` is a file (`gitdir: <repo>/.git/worktrees/<name>`), which names the main checkout. Each library keeps what it
 * looked up, once per folder.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

const MAX_FOLDERS = 10_000;

export class WorktreeRoots {
  private readonly roots = new Map<string, string>();
  private readonly checkouts = new Map<string, boolean>();

  /** The main checkout of the repository `folder` belongs to (as a worktree or itself); the folder when unknown. */
  rootOf(folder: string): string {
    const known = this.roots.get(folder);
    if (known !== undefined) return known;
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
    if (this.roots.size > MAX_FOLDERS) this.roots.clear();
    this.roots.set(folder, result);
    return result;
  }

  /** Whether a folder is a git checkout (its `.git` a folder, or a worktree's file), looked up once. */
  isCheckout(folder: string): boolean {
    let known = this.checkouts.get(folder);
    if (known === undefined) {
      known = existsSync(resolve(folder, '.git'));
      if (this.checkouts.size > MAX_FOLDERS) this.checkouts.clear();
      this.checkouts.set(folder, known);
    }
    return known;
  }

  /** Whether `project` is the filter folder, inside it, or (unless `exact`) a git worktree of the same repository. */
  inProject(project: string | undefined, filter: string, exact = false): boolean {
    if (!project) return false;
    const norm = (p: string): string =>
      p
        .replace(/[\\/]+$/, '')
        .replace(/\\/g, '/')
        .toLowerCase();
    const within = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`);
    if (within(norm(project), norm(filter))) return true;
    return !exact && within(norm(this.rootOf(project)), norm(this.rootOf(filter)));
  }

  clear(): void {
    this.roots.clear();
    this.checkouts.clear();
  }
}
