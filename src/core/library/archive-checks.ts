/**
 * What a start checks of the archive beside the transcripts: entries changed since the snapshot (their transcripts are
 * read again), and sessions only the archive still holds (their transcripts are gone: kept, marked deleted).
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Logger } from '../log.js';
import { changedEntries, type EntryChecks } from '../ingest/file-state.js';
import { sessionFacts } from '../ingest/sources/build.js';
import { holdsCurrentFacts, maskedByCurrentRules, remaskArchived, type Archive } from '../store/archive.js';
import type { SessionCatalog } from './catalog.js';
import type { KnownFile } from './options.js';
import type { FileState } from '../ingest/file-state.js';
import type { SourceRoot } from '../ingest/sources/registry.js';
import { Persistence } from '../store/persistence.js';

/**
 * Transcripts whose archive entry differs from what the catalog records (damaged, or rewritten by another process):
 * their files, to read again. `found`: the entries a walk stated before the load (scan-aside.ts); an entry it found
 * as recorded is taken as it, the others are stated now (one the load wrote since, reading its transcript, is as now
 * recorded, and not read again).
 */
export async function changedArchiveEntries(catalog: SessionCatalog, archive: Archive, found?: EntryChecks): Promise<string[]> {
  const unstated: KnownFile[] = [];
  for (const k of catalog.byFile.values()) {
    if (!k.entry) continue;
    const seen = found?.get(k.file);
    if (!seen || seen.state?.[0] !== k.entry[0] || seen.state[1] !== k.entry[1]) unstated.push(k);
  }
  return (await changedEntries(unstated, (file) => archive.entryPath(file))).map((k) => k.file);
}

/**
 * Archived sessions of configured sources (`isConfigured`) whose transcript no longer exists: still searchable, marked
 * deleted. Among the archive's entries no known file names, or among those `listed` (the walk's, less the known files'
 * it did not name: files known since are told apart by the file each entry names); `names` gives entry names already
 * computed (by the walk).
 */
export async function restoreArchivedOnly(
  catalog: SessionCatalog,
  archive: Archive,
  logger: Logger,
  isConfigured: (source: string, file: string) => boolean,
  given: { names?: (file: string) => string | undefined; listed?: string[] } = {},
): Promise<void> {
  const known = given.listed ? undefined : new Set([...catalog.byFile.keys()].map((f) => given.names?.(f) ?? basename(archive.entryPath(f))));
  for (const { entry, meta } of await archive.list((name) => !known?.has(name), given.listed)) {
    if (catalog.byFile.has(meta.file) || !isConfigured(meta.source, meta.file)) continue;
    if (await stat(meta.file).catch(() => undefined)) continue; // present but no longer accepted: not ours to show
    const archived = await archive.load(entry);
    if (!archived) continue;
    if (!maskedByCurrentRules(meta)) await remaskArchived(archive, meta, archived.sessions, logger);
    // (the transcript is gone: what its sessions touched and decided is found in their archived turns)
    if (!holdsCurrentFacts(meta)) for (const s of archived.sessions) sessionFacts(s);
    if (archived.damaged) logger.warn(`${meta.file}: ${archived.damaged} session(s) lost: damaged in the archive and the transcript no longer exists`);
    for (const s of archived.sessions) s.sourceDeleted = true;
    catalog.replaceFile(
      { file: meta.file, sessions: archived.sessions, size: meta.size, mtimeMs: meta.mtimeMs, ino: 0 },
      { source: meta.source, path: meta.file },
    );
  }
}

/**
 * Deletes the archive and the snapshot: sessions whose transcript is gone leave the index; the files still on disk are
 * handed to `readAgain` (the archive held their turns).
 */
export async function purgeArchive(
  catalog: SessionCatalog,
  archive: Archive,
  dataDir: string,
  readAgain: (files: Map<SourceRoot, FileState[]>) => Promise<void>,
): Promise<void> {
  await archive.purge();
  await Persistence.discard(dataDir);
  const again = new Map<SourceRoot, FileState[]>();
  for (const [file, known] of [...catalog.byFile]) {
    if (known.ids.length && known.ids.every((id) => catalog.sessions.get(id)?.sourceDeleted === true)) {
      for (const id of known.ids) catalog.remove(id);
      catalog.byFile.delete(file);
    } else again.set(known.root, [...(again.get(known.root) ?? []), known]);
  }
  await readAgain(again);
}
