/**
 * The archive: the product's own masked, normalised copy of every transcript file's sessions, so history outlives the
 * tool that wrote it (Claude Code deletes transcripts after 30 days). One entry per source file,
 * `<data>/archive/v1/<hash of the path>.jsonl`: line 1 describes the source file (path, size, mtime), each further
 * line is one session. Entries are written to a temporary file, flushed and renamed, so a reader (another process)
 * sees the old entry or the new one, never half of one, and a crash mid-write leaves only a stray temporary file.
 */
import { createHash } from 'node:crypto';
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
    let text: string;
    try {
      text = await readFile(entry, 'utf8');
    } catch {
      return undefined;
    }
    const lines = text.split('\n').filter(Boolean);
    try {
      const meta = JSON.parse(lines[0]) as ArchiveMeta;
      if (meta.version !== ARCHIVE_VERSION) return undefined;
      return { meta, sessions: lines.slice(1).map((l) => JSON.parse(l) as Session) };
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
    const body = [JSON.stringify({ version: ARCHIVE_VERSION, ...meta }), ...sessions.map((s) => JSON.stringify({ ...s, sourceDeleted: undefined }))].join('\n') + '\n';
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(body, 'utf8');
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, entry);
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
