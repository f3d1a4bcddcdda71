/**
 * What a start checks of the archive beside the transcripts: entries changed since the snapshot (their transcripts are
 * read again), and sessions only the archive still holds (their transcripts are gone: kept, marked deleted).
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Logger } from '../log.js';
import { changedEntries, type EntryChecks, type Scan } from '../ingest/file-state.js';
import { errorMessage } from '../errors.js';
import { entryFileName } from '../store/entry-name.js';
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
 * After a warm start's load: transcripts whose archive entry changed since the snapshot (damaged, or rewritten by
 * another process) are read again (`reload`), by the states the walk made of the entries where it made them. Not part
 * of the load: the entries hold the turns, not what the index answers from, and a damaged entry read meanwhile is caught
 * by its checksums and repaired; at 10,000 sessions the check is 10,000 stats on the walk's longest path.
 */
export async function readChangedEntriesAgain(
  catalog: SessionCatalog,
  archive: Archive,
  logger: Logger,
  scanning: Promise<Scan> | undefined,
  reload: (file: string) => Promise<void>,
): Promise<void> {
  try {
    const found = await (await scanning?.catch(() => undefined))?.entries;
    for (const file of await changedArchiveEntries(catalog, archive, found)) {
      logger.warn(`${file}: its archive entry changed since the snapshot; reading it again`);
      await reload(file);
    }
  } catch (err) {
    logger.warn(`the archive's entries were not checked: ${errorMessage(err)}`);
  }
}

/**
 * Archived sessions of configured sources (`isConfigured`) whose transcript no longer exists: still searchable, marked
 * deleted. Where the walk listed the archive's entries none of its files names (`unnamed`), only those are looked at,
 * less the entries of known files it did not find (`unseen`: their transcripts gone; at 50,000 sessions, 50,000 names
 * neither listed nor hashed here); else every entry no known file names (`entryName`: names the walk computed). Files
 * known since the walk are told apart by the file each entry names.
 */
export async function restoreArchivedOnly(
  catalog: SessionCatalog,
  archive: Archive,
  logger: Logger,
  isConfigured: (source: string, file: string) => boolean,
  walk: Pick<Scan, 'entryName' | 'unnamed'> & { unseen?: string[] } = {},
): Promise<void> {
  const unnamed = await walk.unnamed;
  const known = new Set(
    unnamed ? (walk.unseen ?? []).map(entryFileName) : [...catalog.byFile.keys()].map((f) => walk.entryName?.(f) ?? basename(archive.entryPath(f))),
  );
  for (const { entry, meta } of await archive.list((name) => !known.has(name), unnamed)) {
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
