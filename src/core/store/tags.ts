/**
 * Tags a person gives sessions (`tag_session`, the CLI's `tag`, the tree's Add Tag…), kept in the data folder's
 * `tags.json` (`{version: 1, sessions: {<session id>: [tags]}}`) so that they survive rebuilds and reach every front
 * end. Several processes share a data folder (the editor's index server, the MCP server, the CLI): the file is read
 * again when another one changed it, changed under a fresh read, and written whole (a temporary file, then rename).
 */
import { readFileSync, statSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionSearchError } from '../errors.js';
import { makePrivateDir, PRIVATE } from './private.js';

export const MAX_TAG_CHARS = 50;
const MAX_TAGS_PER_SESSION = 100;
/** How often (at most) the file is checked for another process's changes. */
const RECHECK_MS = 500;

/**
 * A tag as stored: lower case, inner spaces as `-`. Refused with a clear message: empty, longer than 50 characters,
 * control characters, `/` (tags are not paths).
 */
export function normalizeTag(raw: string): string {
  if (typeof raw !== 'string') throw new SessionSearchError('INVALID_ARGUMENT', 'a tag must be text.');
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw)) throw new SessionSearchError('INVALID_ARGUMENT', `tag ${JSON.stringify(raw)} holds control characters.`);
  const tag = raw.trim().toLowerCase().replace(/\s+/g, '-');
  if (!tag) throw new SessionSearchError('INVALID_ARGUMENT', 'a tag cannot be empty.');
  if (tag.includes('/')) throw new SessionSearchError('INVALID_ARGUMENT', `tag "${tag}" holds "/": use - or . instead.`);
  if (tag.length > MAX_TAG_CHARS) throw new SessionSearchError('INVALID_ARGUMENT', `tag "${tag.slice(0, 20)}…" is longer than ${MAX_TAG_CHARS} characters.`);
  return tag;
}

export class TagStore {
  private tags = new Map<string, string[]>();
  private readonly file: string | undefined;
  private seenMtime = 0;
  private checkedAt = 0;

  /** Without a data folder, tags live as long as the process. */
  constructor(dataDir: string | undefined) {
    this.file = dataDir ? join(dataDir, 'tags.json') : undefined;
    this.reload();
  }

  /** The user's tags of one session. */
  of(id: string): readonly string[] {
    this.refresh();
    return this.tags.get(id) ?? [];
  }

  /** Every tag in use with how many sessions carry it. */
  counts(): Map<string, number> {
    this.refresh();
    const counts = new Map<string, number>();
    for (const list of this.tags.values()) for (const t of list) counts.set(t, (counts.get(t) ?? 0) + 1);
    return counts;
  }

  /** Adds tags (normalised; all refused if one is bad) and answers the session's tags. */
  async add(id: string, raw: readonly string[]): Promise<string[]> {
    const tags = raw.map(normalizeTag);
    return this.change(id, (current) => [...new Set([...current, ...tags])]);
  }

  /** Removes tags (a tag the session does not carry is ignored) and answers the session's tags. */
  async remove(id: string, raw: readonly string[]): Promise<string[]> {
    const tags = new Set(raw.map((t) => t.trim().toLowerCase().replace(/\s+/g, '-')));
    return this.change(id, (current) => current.filter((t) => !tags.has(t)));
  }

  private async change(id: string, edit: (current: string[]) => string[]): Promise<string[]> {
    this.reload(); // another process may have tagged meanwhile
    const next = edit(this.tags.get(id) ?? []);
    if (next.length > MAX_TAGS_PER_SESSION) throw new SessionSearchError('INVALID_ARGUMENT', `a session carries at most ${MAX_TAGS_PER_SESSION} tags.`);
    if (next.length) this.tags.set(id, next);
    else this.tags.delete(id);
    if (this.file) {
      await makePrivateDir(join(this.file, '..'));
      const temp = `${this.file}.${process.pid}.tmp`;
      await writeFile(temp, `${JSON.stringify({ version: 1, sessions: Object.fromEntries(this.tags) }, null, 1)}\n`, PRIVATE);
      await rename(temp, this.file);
      this.seenMtime = statSync(this.file).mtimeMs;
    }
    return next;
  }

  private refresh(): void {
    const now = Date.now();
    if (!this.file || now - this.checkedAt < RECHECK_MS) return;
    this.checkedAt = now;
    const mtime = statMtime(this.file);
    if (mtime !== this.seenMtime) this.reload();
  }

  private reload(): void {
    if (!this.file) return;
    this.checkedAt = Date.now();
    this.seenMtime = statMtime(this.file);
    if (!this.seenMtime) return;
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { sessions?: Record<string, unknown> };
      const next = new Map<string, string[]>();
      for (const [id, list] of Object.entries(parsed.sessions ?? {}))
        if (Array.isArray(list))
          next.set(
            id,
            list.filter((t): t is string => typeof t === 'string'),
          );
      this.tags = next;
    } catch {
      // a file being replaced, or damaged: keep what was read last (it is written whole again on the next change)
    }
  }
}

function statMtime(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
