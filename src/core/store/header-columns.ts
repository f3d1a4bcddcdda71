/**
 * The snapshot header's sessions and files in columns (layouts 9 and 10; in 10 the sessions' fields no start reads are
 * rows instead, session-rows.ts): one list per field, each holding that field of
 * every session (or file) in order, instead of one object per session. A warm start parsed 10,000 session objects and
 * 10,000 file objects (and their small arrays) out of the header only to copy each into the object the library keeps,
 * and the collector moved them all first: parsing and taking the header's columns instead took about a third less
 * time (measured on the header of 10,000 real-shaped sessions). What the columns hold is what compact-header.ts
 * leaves of each session and file (null where another field gives it); a session's fields are taken once, by
 * `HeaderSessions.meta`, as the session is made. A header of the layouts before (7, 8: a list of objects) is read through the same
 * interface.
 */
import type { Session, SourceId } from '../model.js';
import type { CompactFile, CompactHeader, CompactSession } from './compact-header.js';
import { COLUMN_FIELDS, packRows, rowReader, type PlainField, type SessionRows } from './session-rows.js';

/** The sessions' fields: a list per field name, one value per session (null: the session has none, or it is derived). */
export interface SessionColumns {
  count: number;
  fields: Record<string, unknown[]>;
  /** Where each session's turns lie, two numbers a session: offset and length (-1, 0: nowhere). */
  at: number[];
  /** The archive entry holding each session's turns; null: the snapshot's own turns region, at `at`. */
  entry: (string | null)[];
  /** (layout 10) The fields kept in rows instead, in the order a row holds them (session-rows.ts)... */
  rowFields?: string[];
  /** ...and every field's place among them all, as the sessions have them (the columns' and the rows' in one order). */
  order?: string[];
}

/** The files' fields, one value per file; `entry`: the archive entry's size and time, two a file (null, null: none). */
export interface FileColumns {
  file: string[];
  source: SourceId[];
  root: (string | number)[];
  size: number[];
  mtimeMs: number[];
  ino: number[];
  ids: (string[] | null)[];
  entry: (number | null)[];
}

/** A header's sessions as a restore reads them, whichever layout holds them. */
export interface HeaderSessions {
  readonly count: number;
  id(i: number): string;
  /** The session's file: its place in the header's file list, or its path. */
  file(i: number): string | number;
  turnCount(i: number): number;
  firstPrompt(i: number): string | undefined;
  /** Where its turns lie: in the snapshot at `at`, or in the archive entry `entry` at `at`. */
  turns(i: number): { at: [number, number] | undefined; entry: string | undefined };
  /** Every session's id, in order. */
  ids(): readonly string[];
  /** A field the header holds as the session has it (never one derived from the rest: compact-header.ts). */
  plain<K extends PlainField>(i: number, name: K): Session[K];
  /** What it holds but its turns and where they lie, as the header holds it (compact-header.ts completes it): a new object. */
  meta(i: number): Omit<CompactSession, 'turnCount' | 'firstPrompt' | 'turnsAt' | 'archivedAt'>;
}

/** Where a session's turns lie: the columns `at` and `entry`, not fields. */
const PLACES = new Set(['turnsAt', 'archivedAt']);
/** Not a field of the session itself: what the tree shows without its turns, and where they lie. */
const APART = new Set(['turnCount', 'firstPrompt', ...PLACES]);
/** Null in these says "derived from the rest" (compact-header.ts), not "absent": kept for completeSession. */
const DERIVED = new Set(['nativeId', 'filename', 'topic']);

/**
 * A compact header's sessions and files as columns (the fields in the order the sessions first have them); with `rows`,
 * the fields no start reads (all but COLUMN_FIELDS) as rows instead (session-rows.ts).
 */
export function toColumns(
  compact: Pick<CompactHeader, 'sessions' | 'files'>,
  rows = false,
): { sessions: SessionColumns; files: FileColumns; rows?: SessionRows } {
  const { sessions, files } = compact;
  const fields: Record<string, unknown[]> = {};
  for (const s of sessions) for (const key of Object.keys(s)) if (!(key in fields) && !PLACES.has(key)) fields[key] = [];
  const at: number[] = [];
  const entry: (string | null)[] = [];
  for (const s of sessions) {
    for (const key in fields) fields[key].push((s as unknown as Record<string, unknown>)[key] ?? null);
    const place = s.archivedAt?.at ?? s.turnsAt ?? [-1, 0];
    at.push(place[0], place[1]);
    entry.push(s.archivedAt?.entry ?? null);
  }
  const order = Object.keys(fields);
  const rowFields = rows ? order.filter((key) => !COLUMN_FIELDS.has(key)) : [];
  const rowLists = rowFields.map((key) => fields[key]);
  for (const key of rowFields) delete fields[key];
  const columns: FileColumns = { file: [], source: [], root: [], size: [], mtimeMs: [], ino: [], ids: [], entry: [] };
  for (const f of files) {
    columns.file.push(f.file);
    columns.source.push(f.source);
    columns.root.push(f.root);
    columns.size.push(f.size);
    columns.mtimeMs.push(f.mtimeMs);
    columns.ino.push(f.ino);
    columns.ids.push(f.ids);
    columns.entry.push(f.entry?.[0] ?? null, f.entry?.[1] ?? null);
  }
  const columnsOf: SessionColumns = { count: sessions.length, fields, at, entry };
  if (!rows) return { sessions: columnsOf, files: columns };
  columnsOf.order = order;
  columnsOf.rowFields = rowFields;
  return { sessions: columnsOf, files: columns, rows: packRows(sessions.length, (i) => rowLists.map((list) => list[i])) };
}

/**
 * The sessions of a header of any layout (`rows`: where its columns name fields kept in rows); throws where its columns
 * disagree in length, lack a field every session has, or name rows it was not given.
 */
export function headerSessions(sessions: CompactSession[] | SessionColumns, rows?: SessionRows): HeaderSessions {
  return Array.isArray(sessions) ? fromObjects(sessions) : fromColumns(sessions, rows);
}

/** The files of a header of any layout, as objects (the files are completed in place by compact-header.ts). */
export function headerFiles(files: CompactFile[] | FileColumns): CompactFile[] {
  if (Array.isArray(files)) return files;
  if (!Array.isArray(files.file)) throw new Error("the header's files have no file column");
  const n = files.file.length;
  for (const [name, list] of Object.entries(files) as [string, unknown[]][])
    if (!Array.isArray(list) || list.length !== (name === 'entry' ? 2 * n : n))
      throw new Error(`the header's file column ${name} does not hold one value per file`);
  const out: CompactFile[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const size = files.entry[2 * i];
    out[i] = {
      file: files.file[i],
      source: files.source[i],
      root: files.root[i],
      size: files.size[i],
      mtimeMs: files.mtimeMs[i],
      ino: files.ino[i],
      ids: files.ids[i],
      ...(size === null ? {} : { entry: [size, files.entry[2 * i + 1]!] as [number, number] }),
    };
  }
  return out;
}

function fromObjects(sessions: CompactSession[]): HeaderSessions {
  return {
    count: sessions.length,
    id: (i) => sessions[i].id,
    file: (i) => sessions[i].file,
    turnCount: (i) => sessions[i].turnCount,
    firstPrompt: (i) => sessions[i].firstPrompt,
    ids: () => sessions.map((s) => s.id),
    plain: <K extends PlainField>(i: number, name: K) => sessions[i][name] as Session[K],
    turns: (i) => ({ at: sessions[i].archivedAt?.at ?? sessions[i].turnsAt, entry: sessions[i].archivedAt?.entry }),
    meta: (i) => {
      const meta: Record<string, unknown> = {};
      const stored = sessions[i] as unknown as Record<string, unknown>;
      for (const key in stored) if (!APART.has(key)) meta[key] = stored[key];
      return meta as ReturnType<HeaderSessions['meta']>;
    },
  };
}

function fromColumns(columns: SessionColumns, rows: SessionRows | undefined): HeaderSessions {
  const { count, fields, at, entry, rowFields = [], order = [...Object.keys(fields), ...rowFields] } = columns;
  if (!Number.isSafeInteger(count) || count < 0 || at?.length !== 2 * count || entry?.length !== count) throw new Error("the header's sessions do not add up");
  for (const [name, list] of Object.entries(fields))
    if (!Array.isArray(list) || list.length !== count) throw new Error(`the header's session column ${name} does not hold one value per session`);
  if (
    !Array.isArray(rowFields) ||
    rowFields.some((key) => key in fields || key === 'id' || key === 'file') ||
    !Array.isArray(order) ||
    order.length !== Object.keys(fields).length + rowFields.length ||
    order.some((key) => !(key in fields) && !rowFields.includes(key))
  )
    throw new Error("the header's session rows name fields askew");
  if (rowFields.length && !rows) throw new Error("the header's sessions name rows it does not hold");
  for (const name of ['id', 'source', 'file', 'turnCount'])
    if (count && !fields[name] && !rowFields.includes(name)) throw new Error(`the header's sessions have no ${name}`);
  const row = rows && rowFields.length ? rowReader(rows, count, rowFields.length) : undefined;
  const inRow = new Map(rowFields.map((key, k) => [key, k]));
  // a session's own fields in their order: each from its column, or its place in the session's row
  const own = order.filter((key) => !APART.has(key));
  const lists = own.map((key) => fields[key] as unknown[] | undefined);
  const places = own.map((key) => inRow.get(key) ?? -1);
  const derived = own.map((key) => DERIVED.has(key));
  const rowed = places.some((k) => k >= 0);
  /** A field's value as the header holds it (null: none, or derived), from its column or the session's row. */
  const value = (i: number, name: string): unknown => {
    const list = fields[name];
    if (list) return list[i];
    const k = inRow.get(name);
    return k === undefined ? undefined : row!(i)[k];
  };
  // (no column where there are no sessions)
  const ids = (fields.id as string[] | undefined) ?? [];
  return {
    count,
    id: (i) => ids[i],
    file: (i) => fields.file[i] as string | number,
    turnCount: (i) => value(i, 'turnCount') as number,
    firstPrompt: (i) => (value(i, 'firstPrompt') ?? undefined) as string | undefined,
    ids: () => ids,
    // (null: the session has no such field)
    plain: <K extends PlainField>(i: number, name: K) => (value(i, name) ?? undefined) as Session[K],
    turns: (i) => ({ at: at[2 * i] < 0 ? undefined : [at[2 * i], at[2 * i + 1]], entry: entry[i] ?? undefined }),
    meta: (i) => {
      const meta: Record<string, unknown> = {};
      const values = rowed ? row!(i) : [];
      for (let k = 0; k < own.length; k++) {
        const list = lists[k];
        const v = list ? list[i] : values[places[k]];
        if (v !== null || derived[k]) meta[own[k]] = v;
      }
      return meta as ReturnType<HeaderSessions['meta']>;
    },
  };
}
