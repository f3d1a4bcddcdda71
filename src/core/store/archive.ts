/**
 * The archive: the product's own masked, normalised copy of every transcript file's sessions, so history outlives the
 * tool that wrote it (Claude Code deletes transcripts after 30 days). One entry per source file,
 * `<data>/archive/v1/<hash of the path>.jsonl`: line 1 describes the source file (path, size, mtime), each further
 * line is one session. Entries are written to a temporary file, flushed and renamed, so a reader (another process)
 * sees the old entry or the new one, never half of one, and a crash mid-write leaves only a stray temporary file.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.js';
import type { Session, SourceId } from '../model.js';

export const ARCHIVE_VERSION = 1;
const TEMP_MAX_AGE_MS = 60 * 60 * 1000;

export interface ArchiveMeta {
  version: number;
  source: SourceId;
  file: string;
  size: number;
  mtimeMs: number;
}

/** Where each session read from or written to the archive lies: its entry and the byte range of its line. */
const archived = new WeakMap<Session, { entry: string; at: [number, number] }>();

export function archiveLocation(session: Session): { entry: string; at: [number, number] } | undefined {
  return archived.get(session);
}

/** [offset, length] of every non-empty line (without its newline). */
function splitLines(bytes: Buffer): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    if (end > start) out.push([start, end - start]);
    start = end + 1;
  }
  return out;
}

/**
 * One archived session, read synchronously (a restored session reading its turns on first use). When the entry was
 * rewritten since the position was taken, the session is looked up by id in the whole entry.
 */
export function readArchivedSession(entry: string, at: [number, number], id: string): Session | undefined {
  try {
    const fd = openSync(entry, 'r');
    try {
      const buffer = Buffer.allocUnsafe(at[1]);
      if (readSync(fd, buffer, 0, at[1], at[0]) === at[1]) {
        const session = JSON.parse(buffer.toString('utf8')) as Session;
        if (session.id === id) return session;
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    // moved on: look it up below
  }
  try {
    const bytes = readFileSync(entry);
    for (const [offset, length] of splitLines(bytes).slice(1)) {
      const session = JSON.parse(bytes.toString('utf8', offset, offset + length)) as Session;
      if (session.id === id) return session;
    }
  } catch {
    // the entry is gone or damaged
  }
  return undefined;
}

export class Archive {
  readonly dir: string;

  constructor(
    dataDir: string,
    private readonly logger: Logger,
  ) {
    this.dir = join(dataDir, 'archive', `v${ARCHIVE_VERSION}`);
  }

  entryPath(file: string): string {
    return join(this.dir, `${createHash('sha256').update(file).digest('hex').slice(0, 40)}.jsonl`);
  }

  /** The sessions archived for a source file, or undefined when there is no readable entry. */
  async load(entry: string): Promise<{ meta: ArchiveMeta; sessions: Session[] } | undefined> {
    let bytes: Buffer;
    try {
      bytes = await readFile(entry);
    } catch {
      return undefined;
    }
    try {
      const lines = splitLines(bytes);
      const meta = JSON.parse(bytes.toString('utf8', lines[0][0], lines[0][0] + lines[0][1])) as ArchiveMeta;
      if (meta.version !== ARCHIVE_VERSION) return undefined;
      const sessions = lines.slice(1).map((at) => {
        const session = JSON.parse(bytes.toString('utf8', at[0], at[0] + at[1])) as Session;
        archived.set(session, { entry, at });
        return session;
      });
      return { meta, sessions };
    } catch (err) {
      this.logger.warn(`${entry}: archive entry unreadable (${err instanceof Error ? err.message : String(err)}), ignored`);
      return undefined;
    }
  }

  /** Only the first line of an entry: which file it holds, cheaply. */
  async meta(entry: string): Promise<ArchiveMeta | undefined> {
    const handle = await open(entry, 'r').catch(() => undefined);
    if (!handle) return undefined;
    try {
      const buffer = Buffer.alloc(8192);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const line = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0];
      const meta = JSON.parse(line) as ArchiveMeta;
      return meta.version === ARCHIVE_VERSION ? meta : undefined;
    } catch {
      return undefined;
    } finally {
      await handle.close();
    }
  }

  /**
   * Writes one entry atomically (temporary file, rename). `durable` also flushes it to the disk before the rename:
   * done for single changes while running; a bulk load skips it for speed, since an entry lost to a power cut right
   * after a load is one whose transcript still exists and is read again (an unreadable entry is ignored).
   */
  async save(meta: Omit<ArchiveMeta, 'version'>, sessions: Session[], durable = true): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const entry = this.entryPath(meta.file);
    const temp = `${entry}.${process.pid}.${Date.now()}.tmp`;
    const lines = [JSON.stringify({ version: ARCHIVE_VERSION, ...meta }), ...sessions.map((s) => JSON.stringify({ ...s, sourceDeleted: undefined }))].map((l) => Buffer.from(`${l}\n`, 'utf8'));
    const body = Buffer.concat(lines);
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(body);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, entry);
    let offset = lines[0].length;
    sessions.forEach((session, i) => {
      const length = lines[i + 1].length - 1;
      archived.set(session, { entry, at: [offset, length] });
      offset += length + 1;
    });
  }

  /** Every entry's metadata (of entries whose name `wanted` accepts); stray temporary files of crashed writers are removed once they are old. */
  async list(wanted: (name: string) => boolean = () => true): Promise<{ entry: string; meta: ArchiveMeta }[]> {
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter(wanted);
    const out: { entry: string; meta: ArchiveMeta }[] = [];
    for (const name of names) {
      const entry = join(this.dir, name);
      if (name.endsWith('.tmp')) {
        const info = await stat(entry).catch(() => undefined);
        if (info && Date.now() - info.mtimeMs > TEMP_MAX_AGE_MS) await rm(entry, { force: true });
        continue;
      }
      if (!name.endsWith('.jsonl')) continue;
      const meta = await this.meta(entry);
      if (meta) out.push({ entry, meta });
    }
    return out;
  }

  /** Bytes on disk and entry count: what the "archive size" command reports. */
  async size(): Promise<{ bytes: number; entries: number }> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    let bytes = 0;
    for (const name of names) bytes += (await stat(join(this.dir, name)).catch(() => ({ size: 0 }))).size;
    return { bytes, entries: names.filter((n) => n.endsWith('.jsonl')).length };
  }

  async purge(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
