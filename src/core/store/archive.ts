/**
 * The archive: the product's own masked, normalised copy of every transcript file's sessions, so history outlives the
 * tool that wrote it (Claude Code deletes transcripts after 30 days). One entry per source file,
 * `<data>/archive/v1/<hash of the path>.jsonl`: line 1 describes the source file (path, size, mtime), each further
 * line is one session. Entries are written to a temporary file, flushed and renamed, so a reader (another process)
 * sees the old entry or the new one, never half of one, and a crash mid-write leaves only a stray temporary file.
 * Each line starts with the CRC-32 of its JSON (`<8 hex digits>\t<json>`), so damage on disk is detected when the
 * line is read: a damaged session is read again from its transcript, or reported when the transcript is gone.
 * Entries of version 1 (lines without a checksum) are still read, their sessions checked for shape only. How a line is
 * written and read back, whole or a turn at a time, is one module: archive-line.ts.
 */
import { errorMessage } from '../errors.js';
import { MASK_RULES_VERSION, maskText } from '../mask.js';
import { archiveFolder, entryFileName } from './entry-name.js';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { Logger } from '../log.js';
import { isSession, READ_RULES_VERSION, SessionNote, SOURCE_IDS, type ParsedSession, type Session, type SourceId } from '../model.js';
import { decodeLine, encodeLine, encodeSessionLine } from './archive-line.js';
import { makePrivateDir, PRIVATE_FILE } from './private.js';

export { LAYOUT_FIELDS } from './archive-line.js';

/**
 * What an entry's lines hold: 4 adds each session's `files` and `decisions` and the text each edit wrote
 * (`Turn.written`), the same lines otherwise; 3 adds each session's turn layout (where each turn's JSON lies in the line, its role and
 * kind), so a search can cut snippets from the turns it needs without parsing the whole session; 2 added a checksum
 * to each line; 1 and 2 are still read.
 */
export const ENTRY_VERSION = 4;
const TEMP_MAX_AGE_MS = 60 * 60 * 1000;

export interface ArchiveMeta {
  version: number;
  source: SourceId;
  file: string;
  size: number;
  mtimeMs: number;
  /** The masking rules the entry was written under (MASK_RULES_VERSION; 1 when absent): older ones are masked again. */
  masked?: number;
  /** The reading rules the entry was made under (READ_RULES_VERSION; 1 when absent): older ones are read again. */
  read?: number;
}

/** Whether an entry was written under the current masking rules. */
export const maskedByCurrentRules = (meta: ArchiveMeta): boolean => (meta.masked ?? 1) >= MASK_RULES_VERSION;
/** An entry written before sessions kept their files and decisions: its transcript is read again where it exists. */
export const holdsCurrentFacts = (meta: ArchiveMeta): boolean => meta.version >= 4;
/** An entry made under older reading rules: its transcript is read again where it exists. */
export const readByCurrentRules = (meta: ArchiveMeta): boolean => (meta.read ?? 1) >= READ_RULES_VERSION;

/** An entry's size and modification time when it was written or read: a change since means it was damaged or rewritten. */
export type EntryState = [size: number, mtimeMs: number];

const entryState = (info: { size: number; mtimeMs: number }): EntryState => [info.size, info.mtimeMs];

/** Where each session read from or written to the archive lies: its entry and the byte range of its line. */
const archived = new SessionNote<{ entry: string; at: [number, number] }>('archive location');

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

function isMeta(x: unknown): x is ArchiveMeta {
  const m = x as ArchiveMeta;
  return (
    typeof m === 'object' &&
    m !== null &&
    [1, 2, 3, ENTRY_VERSION].includes(m.version) &&
    SOURCE_IDS.includes(m.source) &&
    typeof m.file === 'string' &&
    typeof m.size === 'number' &&
    typeof m.mtimeMs === 'number'
  );
}

/** A session line, checked: undefined when it is damaged. */
function decodeSession(bytes: Buffer, at: [number, number]): ParsedSession | undefined {
  try {
    const value = decodeLine(bytes, at);
    return isSession(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One archived session, read synchronously (the turn store reading a session's turns back). When the entry was
 * rewritten since the position was taken, the session is looked up by id in the whole entry.
 */
export function readArchivedSession(entry: string, at: [number, number], id: string): ParsedSession | undefined {
  try {
    const fd = openSync(entry, 'r');
    try {
      const buffer = Buffer.allocUnsafe(at[1]);
      if (readSync(fd, buffer, 0, at[1], at[0]) === at[1]) {
        const session = decodeSession(buffer, [0, at[1]]);
        if (session?.id === id) return session;
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    // moved on: look it up below
  }
  try {
    const bytes = readFileSync(entry);
    for (const at of splitLines(bytes).slice(1)) {
      const session = decodeSession(bytes, at);
      if (session?.id === id) return session;
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
    this.dir = archiveFolder(dataDir);
  }

  entryPath(file: string): string {
    // (a warm start names an entry for every transcript: 50,000 at once; `dir` is already normal, so no join)
    return `${this.dir}${sep}${entryFileName(file)}`;
  }

  /**
   * The sessions archived for a source file, or undefined when there is no readable entry. `damaged` counts session
   * lines that failed their checksum or shape check: they are left out (and logged), the others are kept.
   */
  async load(entry: string): Promise<{ meta: ArchiveMeta; sessions: ParsedSession[]; damaged: number } | undefined> {
    let bytes: Buffer;
    try {
      bytes = await readFile(entry);
    } catch {
      return undefined;
    }
    const lines = splitLines(bytes);
    let meta: unknown;
    try {
      meta = lines.length ? decodeLine(bytes, lines[0]) : undefined;
    } catch (err) {
      this.logger.warn(`${entry}: archive entry unreadable (${errorMessage(err)}), ignored`);
      return undefined;
    }
    if (!isMeta(meta)) {
      this.logger.warn(`${entry}: archive entry unreadable (its first line does not describe a transcript), ignored`);
      return undefined;
    }
    const sessions: ParsedSession[] = [];
    let damaged = 0;
    for (const at of lines.slice(1)) {
      const session = decodeSession(bytes, at);
      if (!session) {
        damaged++;
        continue;
      }
      archived.set(session, { entry, at });
      sessions.push(session);
    }
    if (damaged) this.logger.warn(`${entry}: ${damaged} damaged session line(s) in the archive entry of ${meta.file}`);
    return { meta, sessions, damaged };
  }

  /** Only the first line of an entry: which file it holds, cheaply, and the entry's own size and modification time. */
  async meta(entry: string): Promise<(ArchiveMeta & { state: EntryState }) | undefined> {
    const handle = await open(entry, 'r').catch(() => undefined);
    if (!handle) return undefined;
    try {
      const buffer = Buffer.alloc(8192);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const end = buffer.subarray(0, bytesRead).indexOf(10);
      const meta = decodeLine(buffer, [0, end === -1 ? bytesRead : end]);
      return isMeta(meta) ? { ...meta, state: entryState(await handle.stat()) } : undefined;
    } catch {
      return undefined;
    } finally {
      await handle.close();
    }
  }

  /**
   * Writes one entry atomically (temporary file, rename); returns its size and modification time, which a snapshot
   * keeps to notice later damage. `durable` also flushes it to the disk before the rename: done for single changes
   * while running; a bulk load skips it for speed, since an entry lost to a power cut right after a load is one whose
   * transcript still exists and is read again (an unreadable entry is ignored).
   */
  async save(meta: Omit<ArchiveMeta, 'version' | 'masked'>, sessions: ParsedSession[], durable = true): Promise<EntryState> {
    await makePrivateDir(this.dir);
    const entry = this.entryPath(meta.file);
    const temp = `${entry}.${process.pid}.${Date.now()}.tmp`;
    const lines = [
      encodeLine(JSON.stringify({ version: ENTRY_VERSION, ...meta, masked: MASK_RULES_VERSION, read: READ_RULES_VERSION })),
      ...sessions.map(encodeSessionLine),
    ];
    const handle = await open(temp, 'w', PRIVATE_FILE);
    let state: EntryState;
    try {
      // the lines as they are (not joined first: a copy of the whole entry, memory touched for nothing)
      const { bytesWritten } = await handle.writev(lines);
      const size = lines.reduce((sum, line) => sum + line.length, 0);
      if (bytesWritten !== size) throw new Error(`wrote ${bytesWritten} of ${size} bytes`);
      if (durable) await handle.sync();
      state = entryState(await handle.stat());
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
    return state;
  }

  /**
   * Every entry's metadata (of entries whose name `wanted` accepts; among `listed` where the folder was listed before);
   * stray temporary files of crashed writers are removed once they are old.
   */
  async list(wanted: (name: string) => boolean = () => true, listed?: string[]): Promise<{ entry: string; meta: ArchiveMeta }[]> {
    const names = (listed ?? (await readdir(this.dir).catch(() => [] as string[]))).filter(wanted);
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

/**
 * The sessions of an entry written under older masking rules (their transcript is gone, so they cannot be read
 * again), masked under the current rules, written back in place of the old entry.
 */
export async function remaskArchived(archive: Archive, meta: ArchiveMeta, sessions: ParsedSession[], logger: Logger): Promise<void> {
  for (const s of sessions) {
    s.topic = maskText(s.topic);
    for (const t of s.turns) t.text = maskText(t.text);
  }
  try {
    await archive.save({ source: meta.source, file: meta.file, size: meta.size, mtimeMs: meta.mtimeMs }, sessions);
    logger.info(`${meta.file}: archived sessions masked again under the current rules`);
  } catch (err) {
    logger.warn(`${meta.file}: archived sessions not masked again on disk (${errorMessage(err)}); tried again on the next start`);
  }
}
