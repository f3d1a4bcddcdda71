/**
 * Reading one transcript file into sessions, through the archive: a file whose size and modification time match its
 * archive entry is taken from the archive (already parsed and masked) instead of being parsed again.
 */
import { errorMessage } from '../errors.js';
import { stat } from 'node:fs/promises';
import type { ParsedSession } from '../model.js';
import { holdsCurrentFacts, maskedByCurrentRules, readByCurrentRules, type Archive, type EntryState } from '../store/archive.js';
import { sourceById, type SourceRoot } from './sources/registry.js';
import type { FileState } from './file-state.js';
import { ThreadGone, type ParsePool } from './parse-pool.js';
import type { SourceAdapter, SourceContext } from './sources/types.js';
import { readFileCounting } from './unread-lines.js';

export interface FileRead {
  file: string;
  root: SourceRoot;
  sessions: ParsedSession[];
  /** Parsed from the source now (so its archive entry must be written), rather than taken from the archive. */
  fresh: boolean;
  size: number;
  mtimeMs: number;
  ino: number;
  /** The state of the file's archive entry, once written or when read from it. */
  entry?: EntryState;
}

/** Parses a transcript file into masked sessions: the adapter's own `readFile`, here or on a parsing thread. */
export type Parse = (file: string, root: string) => Promise<ParsedSession[]>;

export async function readFileSessions(
  adapter: SourceAdapter,
  file: string,
  root: SourceRoot,
  ctx: SourceContext,
  archive: Archive | undefined,
  trustArchive: boolean,
  maxFileBytes?: number,
  parse: Parse = (file, root) => readFileCounting(adapter, file, root, ctx),
): Promise<FileRead> {
  const info = await stat(file);
  if (maxFileBytes !== undefined && info.size > maxFileBytes) {
    ctx.logger.warn(`${file}: skipped, ${info.size} bytes is over the configured limit of ${maxFileBytes}`);
    return { file, root, sessions: [], fresh: false, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
  }
  if (archive && trustArchive) {
    const entry = archive.entryPath(file);
    const meta = await archive.meta(entry);
    // an entry written under older masking or reading rules, or before sessions kept their files and decisions, is not trusted:
    // the transcript is read (and masked) again
    if (
      meta &&
      meta.size === info.size &&
      meta.mtimeMs === info.mtimeMs &&
      meta.source === root.source &&
      maskedByCurrentRules(meta) &&
      readByCurrentRules(meta) &&
      holdsCurrentFacts(meta)
    ) {
      const archived = await archive.load(entry);
      if (archived?.damaged) ctx.logger.warn(`${file}: read again from the transcript, its archive entry is damaged`);
      else if (archived)
        return { file, root, sessions: archived.sessions, fresh: false, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, entry: meta.state };
    }
  }
  const sessions = await parse(file, root.path);
  return { file, root, sessions, fresh: true, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
}

/** Files read at once during a load. */
const READ_AHEAD = 8;

/** How files are read: through the archive when `trustArchive`, parsing on `pool`'s threads when given. */
export interface ReadOptions {
  ctx: SourceContext;
  archive: Archive | undefined;
  trustArchive: boolean;
  maxFileBytes?: number;
  signal?: AbortSignal;
  /** A file was read (in load order). */
  onFile: (state: FileState) => void;
  pool?: ParsePool;
}

/** Reads one file of a root (see readFileSessions); a file that fails is logged and skipped. */
export function readOne(root: SourceRoot, state: FileState, o: ReadOptions): Promise<FileRead | undefined> {
  const adapter = sourceById(root.source)!;
  const here: Parse = (file, path) => readFileCounting(adapter, file, path, o.ctx);
  const pool = o.pool;
  const parse: Parse = pool
    ? (file, path) => pool.parse(adapter.id, file, path).catch((err: unknown) => (err instanceof ThreadGone ? here(file, path) : Promise.reject(err)))
    : here;
  return readFileSessions(adapter, state.file, root, o.ctx, o.archive, o.trustArchive, o.maxFileBytes, parse).catch((err: unknown) => {
    o.ctx.logger.warn(`${state.file}: skipped, ${errorMessage(err)}`);
    return undefined;
  });
}

/** Reads files of one root a few at a time, so reading one overlaps parsing another; stops between files when `signal` fires. */
export async function readBatch(root: SourceRoot, files: FileState[], o: ReadOptions): Promise<FileRead[]> {
  const reads: FileRead[] = [];
  for (let i = 0; i < files.length && !o.signal?.aborted; i += READ_AHEAD) {
    const batch = files.slice(i, i + READ_AHEAD);
    for (const [k, read] of (await Promise.all(batch.map((state) => readOne(root, state, o)))).entries()) {
      if (read) reads.push(read);
      o.onFile(batch[k]);
    }
  }
  return reads;
}

/** Writes the archive entries of freshly parsed files (after cross-file fix-ups), several at a time; failures are logged, not fatal. */
export async function archiveReads(archive: Archive | undefined, reads: FileRead[], ctx: SourceContext, durable = true): Promise<void> {
  if (!archive) return;
  const fresh = reads.filter((r) => r.fresh);
  const write = async (read: FileRead): Promise<void> => {
    try {
      read.entry = await archive.save({ source: read.root.source, file: read.file, size: read.size, mtimeMs: read.mtimeMs }, read.sessions, durable);
    } catch (err) {
      ctx.logger.warn(`${read.file}: not archived (${errorMessage(err)})`);
    }
  };
  for (let i = 0; i < fresh.length; i += 8) await Promise.all(fresh.slice(i, i + 8).map(write));
}
