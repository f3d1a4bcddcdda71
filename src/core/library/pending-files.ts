/**
 * The files a load under way has still to read, and when it knows them: a session asked for by name (`get`, `read`,
 * `export`, `info`) that the load has not reached is read from them ahead of its turn (Loader.readNamed).
 */
import { relative, sep } from 'node:path';
import type { FileState } from '../ingest/file-state.js';
import type { SourceRoot } from '../ingest/sources/registry.js';

type Pending = { root: SourceRoot; state: FileState };

export class PendingFiles {
  private readonly files = new Map<string, Pending>();
  /** Settles once the walk under way has filled `files` (undefined: none under way). */
  private walked: Promise<void> | undefined;
  private endWalk: (() => void) | undefined;

  /**
   * A walk is coming (one already expected is joined): asked from a load's first moment, so that a session asked for
   * while the snapshot is restored waits for the walk rather than being missed. What it returns ends the wait, however
   * the walk ended.
   */
  expectWalk(): () => void {
    if (!this.endWalk) {
      let end!: () => void;
      const walked = new Promise<void>((resolve) => (end = resolve));
      this.walked = walked;
      this.endWalk = () => {
        end();
        if (this.walked === walked) this.walked = this.endWalk = undefined;
      };
    }
    return this.endWalk;
  }

  fill(changed: readonly { root: SourceRoot; files: readonly FileState[] }[]): void {
    for (const { root, files } of changed) for (const state of files) this.files.set(state.file, { root, state });
  }

  has(file: string): boolean {
    return this.files.has(file);
  }

  delete(file: string): boolean {
    return this.files.delete(file);
  }

  clear(): void {
    this.files.clear();
  }

  /** The files whose path names `name`, once the walk under way (if any) has found them. */
  async named(name: string): Promise<{ key: string; found: Pending[] }> {
    await this.walked;
    return filesNamed(name, this.files.values());
  }
}

/**
 * The files of a load under way whose path names a session asked for by name (`get`, `read`): a Claude Code or Codex
 * id is in its file name, a CodeArchitect topic is its folder. At most 20; none for a name of fewer than 4 characters.
 */
export function filesNamed<T extends { root: SourceRoot; state: FileState }>(name: string, pending: Iterable<T>): { key: string; found: T[] } {
  const key = name
    .replace(/#.*$/, '')
    .replace(/^[a-z-]+:/, '')
    .replace(/(-summary\.md|-full\.md|\.md|\.jsonl?)$/, '');
  if (key.length < 4) return { key, found: [] };
  const names = (file: string, root: SourceRoot): boolean =>
    relative(root.path, file)
      .split(sep)
      .some((part) => part === key || part.replace(/\.[^.]+$/, '') === key || (key.length >= 16 && part.includes(key)));
  return { key, found: [...pending].filter(({ root, state }) => names(state.file, root)).slice(0, 20) };
}
