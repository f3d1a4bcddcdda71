/**
 * Sessions by the files they touched: built from their touches (`Session.files`, or for a restored session the
 * snapshot's, store/restored-lists.ts) the first time a file is asked about (nothing is paid
 * by a library nobody asks), then kept up to date as sessions are added and removed. Paths are keyed by the file of
 * the repository they name: a git worktree's file is its main checkout's file of the same relative path, separators
 * are `/`, and on macOS and Windows case does not matter.
 */
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Session } from '../model.js';
import type { WorktreeRoots } from '../answer/worktrees.js';
import { decodeTouch, type FileTouch } from './touches.js';

export class FileIndex {
  private bySession = new Map<string, string[]>();
  private byKey = new Map<string, Set<string>>();
  private built = false;
  /** While the index is built: keys already worked out, by folder and path (most files are touched many times). */
  private memo: Map<string, string> | undefined;

  constructor(
    private readonly all: () => Iterable<Session>,
    private readonly worktrees: WorktreeRoots,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly touchesOf: (session: Session) => readonly string[] | undefined = (s) => s.files,
  ) {}

  /** Ids of the sessions that touched the file a key names. */
  sessionsFor(key: string): string[] {
    this.build();
    return [...(this.byKey.get(key) ?? [])];
  }

  /** A session's touches of the file a key names, in turn order. */
  touches(session: Session, key: string): FileTouch[] {
    const out: FileTouch[] = [];
    for (const encoded of this.touchesOf(session) ?? []) {
      const touch = decodeTouch(encoded);
      if (touch && this.keyOf(touch.path, session.project) === key) out.push(touch);
    }
    return out;
  }

  /** How many files are known (for status lines and tests). */
  get size(): number {
    this.build();
    return this.byKey.size;
  }

  add(session: Session): void {
    if (!this.built) return;
    this.remove(session.id);
    const keys = new Set<string>();
    for (const encoded of this.touchesOf(session) ?? []) {
      const touch = decodeTouch(encoded);
      if (!touch) continue;
      const id = `${session.project ?? ''}\0${touch.path}`;
      let key = this.memo?.get(id);
      if (key === undefined) {
        key = this.keyOf(touch.path, session.project);
        this.memo?.set(id, key);
      }
      keys.add(key);
    }
    if (!keys.size) return;
    this.bySession.set(session.id, [...keys]);
    for (const key of keys) {
      let ids = this.byKey.get(key);
      if (!ids) this.byKey.set(key, (ids = new Set()));
      ids.add(session.id);
    }
  }

  remove(id: string): void {
    const keys = this.bySession.get(id);
    if (!keys) return;
    this.bySession.delete(id);
    for (const key of keys) {
      const ids = this.byKey.get(key);
      ids?.delete(id);
      if (ids && !ids.size) this.byKey.delete(key);
    }
  }

  /** Forgets everything: built again on the next question (a restored snapshot, a rebuild). */
  clear(): void {
    this.bySession.clear();
    this.byKey.clear();
    this.built = false;
  }

  /**
   * The key of a path: of a session's file (resolved against its folder, which names its repository even when the
   * checkout is gone) or of a file a person asks about (`cwd`: where the question was asked; its folders are looked up
   * for the checkout holding it).
   */
  keyOf(path: string, folder?: string): string {
    const absolute = folder && !isAbsolute(path) ? resolve(folder, path) : path;
    const checkout = this.checkoutOf(folder && inside(folder, absolute) ? folder : dirname(absolute));
    const root = checkout ? this.worktrees.rootOf(checkout) : undefined;
    const mapped = root && checkout && root !== checkout ? resolve(root, relative(checkout, absolute)) : absolute;
    const plain = mapped.replace(/\\/g, '/');
    return this.platform === 'darwin' || this.platform === 'win32' ? plain.toLowerCase() : plain;
  }

  private build(): void {
    if (this.built) return;
    this.built = true;
    this.memo = new Map();
    for (const session of this.all()) this.add(session);
    this.memo = undefined;
  }

  /** The nearest folder (itself or above) that is a git checkout (a worktree's `.git` is a file), when one is on disk. */
  private checkoutOf(start: string): string | undefined {
    let folder = start;
    for (let depth = 0; depth < 40; depth++) {
      if (this.worktrees.isCheckout(folder)) return folder;
      const up = dirname(folder);
      if (up === folder) return undefined;
      folder = up;
    }
    return undefined;
  }
}

function inside(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
