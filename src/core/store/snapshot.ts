/**
 * The index snapshot: one file, `<data>/index/snapshot.bin`, written to a temporary file, flushed (fsync) and renamed,
 * so a reader sees the previous snapshot or the new one and a crash mid-write leaves only a stray temporary file.
 *
 * Layout: the turns (as JSON) of sessions that have no archive entry holding them, then the search index as flat, 8-byte aligned arrays, then a JSON header
 * (version, configuration, manifest of the files covered, session metadata, where each section lies), then a fixed
 * footer pointing at the header. Start-up reads the header and the index arrays only; the library's turn store reads a
 * restored session's turns from the file when they are asked for (turn-store.ts), so a warm start costs a few reads instead of parsing the corpus again.
 */
import { errorMessage } from '../errors.js';
import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { asWritten, recordWritten } from './snapshot-written.js';
import { basename, dirname } from 'node:path';
import { isAscii } from 'node:buffer';
import { crc32 } from 'node:zlib';
import type { IndexState, RestoredState, WrittenArrays } from '../index/engine.js';
import type { Segment } from '../index/postings.js';
import { TermTable } from '../index/term-table.js';
import { ArrayFile, DiskArray } from './disk-array.js';
import { SnapshotWriter } from './snapshot-writer.js';
import { unfinishedPath } from './unfinished.js';
import { mergePostings } from './merged-postings.js';
import type { Session, SourceId } from '../model.js';
import { LIST_KEYS, LIST_SECTIONS, type ListKey } from './restored-lists.js';
import { compactHeader, restoredHeader, type CompactFile, type CompactSession } from './compact-header.js';
import { toColumns, type FileColumns, type HeaderSessions, type SessionColumns } from './header-columns.js';
import { checkConsistent, ENTRY_NAME, SnapshotError } from './snapshot-checks.js';
import { makePrivateDir, PRIVATE_FILE } from './private.js';

export { SnapshotError };

/**
 * Bump when parsing, masking or indexing changes what a snapshot would hold: older snapshots are then rebuilt (it is
 * part of the configuration's key, persistence.ts).
 */
export const SNAPSHOT_VERSION = 7;
/**
 * The header's layout, written as its `version`: 10 keeps the sessions' fields no start reads in rows, in sections of
 * their own (session-rows.ts); 9 holds the sessions and files in columns (header-columns.ts), 8 as
 * objects, leaving out what other fields give (compact-header.ts), 7 with everything written out; a build reading only
 * the layouts before rebuilds rather than misreads a newer one. Headers of layouts 7 to 9 are read too (whether their
 * contents are current is the configuration key's to say).
 */
const HEADER_VERSION = 10;
const READ_HEADER_VERSIONS = new Set([7, 8, 9, HEADER_VERSION]);
/** Marks the footer layout (offset, length and checksum of the header); the header's own version says what the sections hold. */
const MAGIC = 'SSSNAPv2';
const FOOTER_BYTES = 8 + 8 + 8 + 8;
/** The turns region is checked in pieces of this size, so a large one is never read into memory at once. */
const CHECK_CHUNK = 8 * 1024 * 1024;

/** One transcript file the snapshot covers, with what identifies its state on disk. */
export interface ManifestEntry {
  file: string;
  source: SourceId;
  /** The configured root the file was read under. */
  root: string;
  size: number;
  mtimeMs: number;
  ino: number;
  ids: string[];
  /** Size and modification time of the file's archive entry when the snapshot was written. */
  entry?: [number, number];
}

/**
 * A session without its turns, plus where the turns lie (a range of this file, or a line of an archive entry, named by
 * its file name in the archive folder) and what the tree shows without reading them.
 */
export type StoredSession = Omit<Session, 'turns'> & {
  turnCount: number;
  firstPrompt?: string;
  turnsAt?: [number, number];
  archivedAt?: { entry: string; at: [number, number] };
};

interface Header {
  version: number;
  config: string;
  created: string;
  /** Written while a load was still reading (a checkpoint): answers from it may miss what the load had not reached. */
  partial?: boolean;
  sections: Record<string, [number, number]>;
  /** CRC-32 of every section, and of the turns region (`turns`: from the start of the file to the first section). */
  checksums: Record<string, number>;
  /** For the arrays that stay in the file (postings, document term lists): a CRC-32 per block, as base64. */
  blocks: Record<string, string>;
  turnsEnd: number;
  segmentTerms: number[];
  /** compact-header.ts: a document's session by its place in `sessions`, a file's root by its place in `roots`. */
  keys: (number | string | null)[];
  totalLengths: number[];
  dead: number;
  roots?: string[];
  /** header-columns.ts: in columns (objects in a header of layout 7 or 8) */
  files: CompactFile[] | FileColumns;
  sessions: CompactSession[] | SessionColumns;
}

export interface SnapshotContents {
  index: RestoredState;
  /** As the header holds them: each made and completed as it is taken (compact-header.ts `completeSession`). */
  sessions: HeaderSessions;
  files: ManifestEntry[];
  created: string;
  handle: FileHandle;
  partial: boolean;
  /** Where the lists kept apart from the header lie (one JSON list each, in the sessions' order), when any session has one. */
  lists: SnapshotLists;
}

/** Where each list kept apart from the header lies (store/restored-lists.ts). */
export type SnapshotLists = Partial<Record<ListKey, { at: [number, number]; checksum: number | undefined }>>;

/** What the writer needs of each session: its turns' bytes or its archive line, and what lists show without them. */
export interface SessionSource {
  session: Session;
  turnCount: number;
  firstPrompt?: string;
  /** The turns' JSON bytes (copied without parsing where they lie in the previous snapshot: turn-store.ts). */
  turns: () => Buffer;
  /** The session's line in an archive entry: the turns are not written again. */
  archived?: { entry: string; at: [number, number] };
  /** Its files, decisions and preferences where the session does not hold them itself (restored: store/restored-lists.ts). */
  kept?: Partial<Pick<Session, ListKey>>;
}

/** Where a snapshot's lists lie, from its header (a snapshot of an earlier build has its touches only, or none). */
function listsOf(header: Header): SnapshotLists {
  const lists: SnapshotLists = {};
  for (const key of LIST_KEYS) {
    const at = header.sections[LIST_SECTIONS[key]];
    if (at) lists[key] = { at, checksum: header.checksums[LIST_SECTIONS[key]] };
  }
  return lists;
}

/** What writing a snapshot gives back: where each session's turns lie, and the index arrays as they now lie in the file. */
export interface WrittenSnapshot {
  turnsAt: ([number, number] | undefined)[];
  /** Where the lists kept apart from the header lie in the new file. */
  lists: SnapshotLists;
  arrays: WrittenArrays & { docTerms: DiskArray };
}

/** Writes a snapshot; returns where each session's turns lie in it (undefined: in the archive), in the order of `sources`. */
export async function writeSnapshot(
  path: string,
  config: string,
  index: IndexState,
  sources: SessionSource[],
  files: ManifestEntry[],
  partial = false,
): Promise<WrittenSnapshot> {
  await makePrivateDir(dirname(path));
  const temp = unfinishedPath(path);
  const handle = await open(temp, 'w', PRIVATE_FILE);
  const sessions: StoredSession[] = [];
  // the index's segments are written as one (read from memory and the previous file as it goes)
  const alive = Uint8Array.from(index.keys, (key) => (key != null ? 1 : 0));
  const merged = index.segments.length ? [mergePostings(index.segments, index.df.length, alive, alive.includes(0))] : [];
  let header: Header;
  // (made before anything is written: the index takes this table once the file is in place, useSnapshotArrays)
  const termLayout = index.termLayout ?? TermTable.fromText(index.terms).layout();
  try {
    const out = new SnapshotWriter(handle);
    let turnsCrc = 0;
    const lists = Object.fromEntries(LIST_KEYS.map((key) => [key, [] as unknown[]])) as Record<ListKey, unknown[]>;
    for (const { session, turnCount, firstPrompt, turns, archived, kept } of sources) {
      const entry = archived && basename(archived.entry);
      let turnsAt: [number, number] | undefined;
      if (!(entry && ENTRY_NAME.test(entry))) {
        const bytes = turns();
        turnsAt = await out.write(bytes);
        turnsCrc = crc32(bytes, turnsCrc);
      }
      const archivedAt = turnsAt ? undefined : { entry: entry!, at: archived!.at };
      // Every key but the turns (stored above) and the lists kept apart (sections of their own, read when first asked for)
      const meta: Record<string, unknown> = {};
      for (const key of Object.keys(session)) if (key !== 'turns' && !(key in LIST_SECTIONS)) meta[key] = session[key as keyof Session];
      sessions.push({ ...(meta as Omit<Session, 'turns'>), turnCount, firstPrompt, turnsAt, archivedAt });
      for (const key of LIST_KEYS) lists[key].push(session[key] ?? kept?.[key] ?? null);
    }
    const compact = compactHeader(sessions, files, index.keys);
    const columns = toColumns(compact, true);
    header = {
      version: HEADER_VERSION,
      config,
      created: new Date().toISOString(),
      ...(partial ? { partial } : {}),
      sections: {},
      checksums: { turns: turnsCrc },
      blocks: {},
      turnsEnd: out.offset,
      segmentTerms: merged.map((s) => s.terms),
      keys: compact.keys,
      totalLengths: index.totalLengths,
      dead: index.dead,
      roots: compact.roots,
      sessions: columns.sessions,
      files: columns.files,
    };
    await out.section(header, 'sessionRows', columns.rows!.text);
    await out.section(header, 'sessionRowStarts', columns.rows!.starts);
    for (const key of LIST_KEYS) {
      if (!lists[key].some((v) => (v as unknown[] | null)?.length)) continue;
      const { at, length, crc } = await out.json(lists[key]);
      header.sections[LIST_SECTIONS[key]] = [at, length];
      header.checksums[LIST_SECTIONS[key]] = crc;
    }
    await out.section(header, 'terms', index.terms);
    // the terms' table as a start takes it (term-table.ts `fromLayout`): not hashed again at every start
    await out.section(header, 'termStarts', termLayout.starts);
    await out.section(header, 'termSlots', termLayout.slots);
    await out.section(header, 'df', index.df);
    await out.section(header, 'lengths', index.lengths);
    await out.section(header, 'recency', index.recency);
    await out.pagedSection(header, 'docTerms', index.docTerms);
    await out.section(header, 'docTermStart', index.docTermStart);
    for (const [i, seg] of merged.entries()) {
      await out.section(header, `s${i}.offsets`, seg.offsets);
      await out.pagedSection(header, `s${i}.docs`, seg.docs);
      await out.pagedSection(header, `s${i}.freqs`, seg.freqs);
    }
    const { at: headerAt, length: headerLength, crc: headerCrc } = await out.json(header, ['keys', 'files', 'sessions']);
    const footer = Buffer.alloc(FOOTER_BYTES);
    footer.writeBigUInt64LE(BigInt(headerAt), 0);
    footer.writeBigUInt64LE(BigInt(headerLength), 8);
    footer.writeBigUInt64LE(BigInt(headerCrc), 16);
    footer.write(MAGIC, 24, 'latin1');
    await out.write(footer);
    await out.drain();
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  // Opened before the rename: the new file's arrays, for the index to read from instead of memory or the old file.
  const file = new ArrayFile(temp);
  const inFile = (name: string, signed: boolean): DiskArray => pagedArray(file, header, name, signed, Infinity);
  try {
    await rename(temp, path);
  } catch (err) {
    file.close();
    throw err;
  }
  await recordWritten(path);
  return {
    turnsAt: sessions.map((s) => s.turnsAt),
    lists: listsOf(header),
    arrays: {
      segments: merged.map((seg, i) => ({
        terms: seg.terms,
        offsets: seg.offsets,
        docs: inFile(`s${i}.docs`, true),
        freqs: inFile(`s${i}.freqs`, false),
      })),
      docTerms: inFile('docTerms', false),
      terms: { text: index.terms, ...termLayout },
      close: () => file.close(),
    },
  };
}

async function readSection(handle: FileHandle, size: number, [at, length]: [number, number], name: string, checksum: number | undefined): Promise<ArrayBuffer> {
  if (!Number.isSafeInteger(at) || !Number.isSafeInteger(length) || at < 0 || length < 0 || at + length > size)
    throw new SnapshotError(`section ${name} lies outside the file`);
  const buffer = new ArrayBuffer(length);
  const { bytesRead } = await handle.read(new Uint8Array(buffer), 0, length, at);
  if (bytesRead !== length) throw new SnapshotError(`section ${name} is truncated`);
  if (crc32(new Uint8Array(buffer)) !== checksum) throw new SnapshotError(`section ${name} is damaged (checksum)`);
  return buffer;
}

/** Checks the turns region piece by piece against its checksum (it can be large: the turns of every unarchived session). */
async function checkTurns(handle: FileHandle, end: number, limit: number, checksum: number | undefined): Promise<void> {
  if (!Number.isSafeInteger(end) || end < 0 || end > limit) throw new SnapshotError('section turns lies outside the file');
  const chunk = Buffer.allocUnsafe(Math.min(CHECK_CHUNK, Math.max(end, 1)));
  let crc = 0;
  for (let at = 0; at < end;) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - at), at);
    if (bytesRead === 0) throw new SnapshotError('section turns is truncated');
    crc = crc32(chunk.subarray(0, bytesRead), crc);
    at += bytesRead;
  }
  if (crc !== checksum) throw new SnapshotError('section turns is damaged (checksum)');
}

/**
 * Reads a snapshot written by `writeSnapshot` with the same configuration. Throws SnapshotError saying why a snapshot
 * cannot be used (another version, another configuration, damage); the caller rebuilds and logs the reason.
 */
export async function readSnapshot(path: string, config: string): Promise<SnapshotContents | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return undefined;
  const handle = await open(path, 'r');
  let arrays: ArrayFile | undefined;
  try {
    if (info.size < FOOTER_BYTES) throw new SnapshotError('file too short');
    const footer = Buffer.alloc(FOOTER_BYTES);
    await handle.read(footer, 0, FOOTER_BYTES, info.size - FOOTER_BYTES);
    if (footer.toString('latin1', 24, 32) !== MAGIC) throw new SnapshotError('not a snapshot of this version (footer)');
    const headerAt = Number(footer.readBigUInt64LE(0));
    const headerLength = Number(footer.readBigUInt64LE(8));
    const headerBytes = Buffer.from(
      await readSection(handle, info.size - FOOTER_BYTES, [headerAt, headerLength], 'header', Number(footer.readBigUInt64LE(16))),
    );
    let header: Header;
    try {
      // (written as ASCII since this release: read a byte to a character; an older header as UTF-8)
      header = JSON.parse(headerBytes.toString(isAscii(headerBytes) ? 'latin1' : 'utf8')) as Header;
    } catch {
      throw new SnapshotError('header is not valid JSON');
    }
    if (!READ_HEADER_VERSIONS.has(header.version))
      throw new SnapshotError(`version ${header.version}, this build reads ${[...READ_HEADER_VERSIONS].join(', ').replace(/, (\d+)$/, ' and $1')}`);
    if (header.config !== config) throw new SnapshotError('written with other settings (exclude patterns, size limit or ranking)');
    const s = header.sections;
    const limit = headerAt;
    const section = (name: string): Promise<ArrayBuffer> => {
      if (!s[name]) throw new SnapshotError(`section ${name} is missing`);
      return readSection(handle, limit, s[name], name, header.checksums[name]);
    };
    // (the sessions' rows are read whole, and parsed a session at a time as each is made: session-rows.ts)
    const rows = s.sessionRows ? { text: Buffer.from(await section('sessionRows')), starts: new Uint32Array(await section('sessionRowStarts')) } : undefined;
    const { sessions, files, keys } = restoredHeader(header, rows);
    await checkTurns(handle, header.turnsEnd, limit, header.checksums.turns);
    // The postings and document term lists stay in the file: read a range at a time, each block checked as read.
    const file = (arrays = new ArrayFile(path));
    const paged: DiskArray[] = [];
    const inFile = (name: string, signed: boolean): DiskArray => {
      const array = pagedArray(file, header, name, signed, limit);
      paged.push(array);
      return array;
    };
    const segments: Segment[] = [];
    for (const [i, terms] of header.segmentTerms.entries()) {
      segments.push({ terms, offsets: new Uint32Array(await section(`s${i}.offsets`)), docs: inFile(`s${i}.docs`, true), freqs: inFile(`s${i}.freqs`, false) });
    }
    let terms: TermTable;
    const written = await asWritten(path, info);
    try {
      const text = new Uint8Array(await section('terms'));
      // (a snapshot of an earlier build has no layout: its terms are hashed here; one as its writer left it, its
      // sections' checksums right, has the layout that writer made, taken as it is: checked, it cost a warm start at
      // millions of terms a quarter to a whole second)
      terms =
        s.termStarts && s.termSlots
          ? TermTable.fromLayout(text, new Uint32Array(await section('termStarts')), new Int32Array(await section('termSlots')), !written)
          : TermTable.fromText(text);
    } catch (err) {
      throw new SnapshotError(errorMessage(err));
    }
    const index: RestoredState & { terms: TermTable } = {
      terms,
      df: new Uint32Array(await section('df')),
      lengths: new Uint32Array(await section('lengths')),
      recency: new Float64Array(await section('recency')),
      docTerms: inFile('docTerms', false),
      docTermStart: new Uint32Array(await section('docTermStart')),
      keys,
      totalLengths: header.totalLengths,
      dead: header.dead,
      segments,
      verify: written
        ? async () => undefined
        : async () => {
            for (const array of paged) await array.verify();
          },
      close: () => file.close(),
    };
    checkConsistent(index, sessions, header.turnsEnd);
    const lists = listsOf(header);
    for (const [key, list] of Object.entries(lists))
      if (list.at[0] < 0 || list.at[0] + list.at[1] > limit) throw new SnapshotError(`section ${LIST_SECTIONS[key as ListKey]} lies outside the file`);
    return { index, sessions, files, created: header.created, partial: header.partial === true, handle, lists };
  } catch (err) {
    await handle.close();
    arrays?.close();
    if (err instanceof SnapshotError) throw err;
    throw new SnapshotError(errorMessage(err));
  }
}

/** A section that stays in the file, read through its block checksums; `limit`: where sections must end. */
function pagedArray(file: ArrayFile, header: Header, name: string, signed: boolean, limit: number): DiskArray {
  const [at, length] = header.sections[name] ?? [];
  const sums = Buffer.from(header.blocks?.[name] ?? '', 'base64');
  if (at === undefined || !Number.isSafeInteger(at) || !Number.isSafeInteger(length) || at < 0 || length % 4 || at + length > limit || sums.length % 4)
    throw new SnapshotError(`section ${name} lies outside the file`);
  return new DiskArray(file, at, length / 4, new Uint32Array(sums.buffer.slice(sums.byteOffset, sums.byteOffset + sums.length)), signed);
}
