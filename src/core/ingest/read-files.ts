/**
 * Reading one transcript file into sessions, through the archive: a file whose size and modification time match its
 * archive entry is taken from the archive (already parsed and masked) instead of being parsed again.
 */
import { errorMessage } from '../errors.js';
import { stat } from 'node:fs/promises';
import type { Session } from '../model.js';
import type { Archive, EntryState } from '../store/archive.js';
import type { SourceRoot } from './sources/registry.js';
import type { SourceAdapter, SourceContext } from './sources/types.js';

export interface FileRead {
  file: string;
  root: SourceRoot;
  sessions: Session[];
  /** Parsed from the source now (so its archive entry must be written), rather than taken from the archive. */
  fresh: boolean;
  size: number;
  mtimeMs: number;
  ino: number;
  /** The state of the file's archive entry, once written or when read from it. */
  entry?: EntryState;
}

export async function readFileSessions(
  adapter: SourceAdapter,
  file: string,
  root: SourceRoot,
  ctx: SourceContext,
  archive: Archive | undefined,
  trustArchive: boolean,
  maxFileBytes?: number,
): Promise<FileRead> {
  const info = await stat(file);
  if (maxFileBytes !== undefined && info.size > maxFileBytes) {
    ctx.logger.warn(`${file}: skipped, ${info.size} bytes is over the configured limit of ${maxFileBytes}`);
    return { file, root, sessions: [], fresh: false, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
  }
  if (archive && trustArchive) {
    const entry = archive.entryPath(file);
    const meta = await archive.meta(entry);
    if (meta && meta.size === info.size && meta.mtimeMs === info.mtimeMs && meta.source === root.source) {
      const archived = await archive.load(entry);
      if (archived?.damaged) ctx.logger.warn(`${file}: read again from the transcript, its archive entry is damaged`);
      else if (archived)
        return { file, root, sessions: archived.sessions, fresh: false, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, entry: meta.state };
    }
  }
  const sessions = await adapter.readFile(file, root.path, ctx);
  return { file, root, sessions, fresh: true, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
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
