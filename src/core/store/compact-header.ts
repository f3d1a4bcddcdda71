/**
 * The snapshot header's sessions, files and index keys without what another of their fields already says: a warm start
 * parses every string of the header and keeps most of them, and at 10,000 sessions a quarter of them repeated another
 * (a native id inside the session's id, a file's name inside its path, a path in both the session and the file list, a
 * root in every file, each session's id three times). Each is left out only where it is exactly what reading makes of
 * the rest, so any header reads back as it was written; a header of the previous layout, with everything written out,
 * reads as it is. A field left out is written as null or a number, not dropped: the object a restore makes of it has
 * the field where it will stay, and putting it back is a store in place (adding four fields to 10,000 objects made each
 * a second block of memory, and took 45 ms).
 */
import type { Session } from '../model.js';
import { headerFiles, headerSessions, type FileColumns, type HeaderSessions, type SessionColumns } from './header-columns.js';
import type { ManifestEntry, StoredSession } from './snapshot.js';
import type { SessionRows } from './session-rows.js';

/** A session as the header holds it: null for a field the rest gives; its file by its place in the header's list. */
export type CompactSession = Omit<StoredSession, 'nativeId' | 'filename' | 'topic' | 'file'> & {
  /** null: the id after `<source>:` */
  nativeId: string | null;
  /** null: the file's base name without its extension */
  filename: string | null;
  /** null: the first prompt */
  topic: string | null;
  /** a number: the file at that place in the header's file list */
  file: string | number;
};

/** A file as the header holds it: its root by its place in the header's roots; null ids: those of its sessions, in order. */
export type CompactFile = Omit<ManifestEntry, 'root' | 'ids'> & { root: string | number; ids: string[] | null };

export interface CompactHeader {
  sessions: CompactSession[];
  files: CompactFile[];
  /** (absent in a header of the previous layout) */
  roots?: string[];
  /** A document's session by its place in `sessions` (or its id where no session has it; null: removed). */
  keys: (number | string | null)[];
}

/** A compact header as a snapshot stores it: its sessions and files in columns (header-columns.ts), or as objects (layout 8). */
export type StoredHeader = Omit<CompactHeader, 'sessions' | 'files'> & { sessions: CompactSession[] | SessionColumns; files: CompactFile[] | FileColumns };

/** The name a session has when its source names it after its file: the file's base name without its extension. */
function fileStem(file: string): string {
  const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** The id after `<source>:`, where the id starts so. */
function nativeOf({ id, source }: Pick<StoredSession, 'id' | 'source'>): string | undefined {
  return id.length > source.length && id.charCodeAt(source.length) === 58 && id.startsWith(source) ? id.slice(source.length + 1) : undefined;
}

export function compactHeader(sessions: StoredSession[], files: ManifestEntry[], keys: (string | null)[]): CompactHeader {
  const fileAt = new Map<string, number>();
  files.forEach((f, i) => fileAt.has(f.file) || fileAt.set(f.file, i));
  const roots: string[] = [];
  const rootAt = new Map<string, number>();
  const idsOf = files.map((): string[] => []);
  const compact = sessions.map((s): CompactSession => {
    const at = fileAt.get(s.file);
    if (at !== undefined) idsOf[at].push(s.id);
    const native = nativeOf(s);
    return {
      ...s,
      nativeId: native !== undefined && s.nativeId === native ? null : s.nativeId,
      filename: s.filename === fileStem(s.file) ? null : s.filename,
      topic: s.topic === s.firstPrompt ? null : s.topic,
      file: at ?? s.file,
    };
  });
  const compactFiles = files.map((f, i): CompactFile => {
    let r = rootAt.get(f.root);
    if (r === undefined) rootAt.set(f.root, (r = roots.push(f.root) - 1));
    const same = f.ids.length === idsOf[i].length && f.ids.every((id, j) => id === idsOf[i][j]);
    return { ...f, root: r, ids: same ? null : f.ids };
  });
  const sessionAt = new Map<string, number>();
  sessions.forEach((s, i) => sessionAt.has(s.id) || sessionAt.set(s.id, i));
  return { sessions: compact, files: compactFiles, roots, keys: keys.map((k) => (k === null ? null : (sessionAt.get(k) ?? k))) };
}

/**
 * The header's files and index keys as `compactHeader` was given them (the files completed in place), and its sessions
 * checked but not yet completed: each is completed in the object a restore makes of it (`completeSession`), not copied
 * once more here. The sessions and files may be columns (header-columns.ts), some sessions' fields in `rows` (layout
 * 10: session-rows.ts). Throws where the header names a file,
 * root or session it does not hold.
 */
export function restoredHeader(
  header: StoredHeader,
  rows?: SessionRows,
): {
  sessions: HeaderSessions;
  files: ManifestEntry[];
  keys: (string | null)[];
} {
  const { roots = [] } = header;
  const sessions = headerSessions(header.sessions, rows);
  const files = headerFiles(header.files);
  const idsOf = files.map((f): string[] | undefined => (f.ids ? undefined : []));
  for (let i = 0; i < sessions.count; i++) {
    const file = sessions.file(i);
    if (typeof file === 'string') continue;
    if (typeof files[file]?.file !== 'string') throw new Error(`session ${sessions.id(i)} names file ${file}, which the header does not hold`);
    idsOf[file]?.push(sessions.id(i));
  }
  files.forEach((f, i) => {
    if (typeof f.root === 'number') {
      if (!(f.root in roots)) throw new Error(`file ${f.file} names root ${f.root}, which the header does not hold`);
      f.root = roots[f.root];
    }
    f.ids ??= idsOf[i]!;
  });
  const keys = header.keys.map((k) => {
    if (typeof k !== 'number') return k;
    if (!(Number.isInteger(k) && k >= 0 && k < sessions.count)) throw new Error(`a document names session ${k}, which the header does not hold`);
    return sessions.id(k);
  });
  return { sessions, files: files as ManifestEntry[], keys };
}

/** What a session of the header left out, put back in place into `meta`: a copy of it the caller made. */
export function completeSession(
  meta: Omit<CompactSession, 'turnCount' | 'firstPrompt' | 'turnsAt' | 'archivedAt'>,
  firstPrompt: string | undefined,
  files: readonly ManifestEntry[],
): Omit<Session, 'turns'> {
  if (typeof meta.file === 'number') meta.file = files[meta.file].file;
  meta.nativeId ??= nativeOf(meta) ?? '';
  meta.filename ??= fileStem(meta.file);
  meta.topic ??= firstPrompt ?? '';
  return meta as Omit<Session, 'turns'>;
}
