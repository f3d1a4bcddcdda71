/**
 * `file_history` / `session-search files`: the sessions whose agent touched a file, newest first, each with its turns
 * and the request that led to them; with `lines`, which session's edit wrote those lines as they are on disk now.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { FileHistoryResponse } from '../contracts.js';
import { SessionSearchError } from '../errors.js';
import type { FileIndex } from '../files/file-index.js';
import { attributeLines, writtenBlocks, type WrittenEdit } from '../files/attribution.js';
import type { FileTouch } from '../files/touches.js';
import { isPrompt, type Session, type Turn } from '../model.js';
import type { TurnReader, TurnStore } from '../store/turn-store.js';
import { maskText } from '../mask.js';

export interface FileHistoryQuery {
  path: string;
  /** Where a relative path is resolved (the command's or the window's folder). */
  cwd?: string;
  /** `"40-80"` or `"42"`: which session wrote these lines as they are now. */
  lines?: string;
  /** Sessions to return, newest first (default 20). */
  limit?: number;
  /** Only sessions active on or after this day (YYYY-MM-DD) or instant. */
  since?: string;
  /** The file's text as an editor holds it (unsaved changes included): matched instead of the file on disk. */
  text?: string;
}

export type { FileHistoryResponse } from '../contracts.js';
export type FileHistorySession = FileHistoryResponse['sessions'][number];
export type FileHistoryTouch = FileHistorySession['touches'][number];
export type FileHistoryLines = NonNullable<FileHistoryResponse['lines']>;

const DEFAULT_LIMIT = 20;
const HUNK_CHARS = 600;
const REQUEST_CHARS = 300;
/** Files larger than this are not read to attribute lines. */
const MAX_ATTRIBUTED_BYTES = 8 * 1024 * 1024;

export function fileHistory(sessions: ReadonlyMap<string, Session>, store: TurnStore, files: FileIndex, query: FileHistoryQuery): FileHistoryResponse {
  if (!query.path?.trim()) throw new SessionSearchError('INVALID_ARGUMENT', 'path is required: the file to look up.');
  const range = query.lines === undefined ? undefined : parseLines(query.lines);
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new SessionSearchError('INVALID_ARGUMENT', `limit must be a whole number of 1 or more, got ${query.limit}.`);
  if (query.since !== undefined && Number.isNaN(Date.parse(query.since)))
    throw new SessionSearchError('INVALID_DATE', `since must be a date (YYYY-MM-DD) or an ISO instant, got "${query.since}".`);
  const absolute = isAbsolute(query.path) ? query.path : resolve(query.cwd ?? process.cwd(), query.path);
  const key = files.keyOf(absolute);
  const touched = files
    .sessionsFor(key)
    .map((id) => sessions.get(id))
    .filter((s): s is Session => !!s && (query.since === undefined || s.updated >= query.since))
    .sort((a, b) => b.updated.localeCompare(a.updated) || a.id.localeCompare(b.id));
  const shown = touched.slice(0, limit).map((s) => describe(s, files.touches(s, key), store));
  const response: FileHistoryResponse = { success: true, path: key, count: shown.length, total: touched.length, sessions: shown };
  if (range) response.lines = attribute(query.text ?? readText(absolute), key, touched, store, files, range);
  return response;
}

function parseLines(lines: string): { from: number; to: number } {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(lines);
  const from = m ? Number(m[1]) : NaN;
  const to = m?.[2] ? Number(m[2]) : from;
  if (!m || from < 1 || to < from) throw new SessionSearchError('INVALID_ARGUMENT', `lines must be "42" or "40-80" (1-based, from ≤ to), got "${lines}".`);
  return { from, to };
}

function describe(session: Session, touches: FileTouch[], store: TurnStore): FileHistorySession {
  const turns = store.reader(session);
  try {
    return describeWith(session, touches, turns);
  } finally {
    turns.close();
  }
}

function describeWith(session: Session, touches: FileTouch[], turns: TurnReader): FileHistorySession {
  const out: FileHistorySession = {
    id: session.id,
    source: session.source,
    topic: session.topic,
    date: session.updated,
    touches: touches.map((t) => {
      const turn = t.kind === 'edit' || t.kind === 'write' || t.kind === 'read' ? turns.get(t.turn) : undefined;
      const entry: FileHistoryTouch = { turn: `${session.id}#${t.turn}`, kind: t.kind };
      // (a turn of another kind is not read from disk for its time)
      const at = turn?.timestamp ?? (turns.onDisk ? undefined : turns.get(t.turn)?.timestamp);
      if (at) entry.at = at;
      if (turn && (t.kind === 'edit' || t.kind === 'write')) {
        const hunk = writtenBlocks(turn, () => true).join('\n…\n');
        if (hunk) entry.hunk = hunk.length > HUNK_CHARS ? `${hunk.slice(0, HUNK_CHARS)}…` : hunk;
      }
      return entry;
    }),
  };
  if (session.project) out.project = session.project;
  const request = touches.length ? requestBefore(turns, touches[0].turn) : undefined;
  if (request) out.request = request;
  return out;
}

/** The last prompt before a turn: what the user asked that the agent was doing. */
function requestBefore(turns: TurnReader, turn: number): string | undefined {
  const prompt = promptBefore(turns, turn);
  if (!prompt) return undefined;
  const text = prompt.text.replace(/\s+/g, ' ').trim();
  return text.length > REQUEST_CHARS ? `${text.slice(0, REQUEST_CHARS - 1)}…` : text;
}

/** The last prompt at or before turn `i`, read from disk alone where the session's turns are there. */
function promptBefore(turns: TurnReader, i: number): Turn | undefined {
  for (let k = Math.min(i, turns.count - 1); k >= 0; k--) {
    const role = turns.role(k);
    const kind = turns.kind(k);
    if (role && kind && isPrompt({ role, kind })) return turns.get(k);
  }
  return undefined;
}

interface EditRef {
  session: Session;
  turn: number;
  at: string;
}

function readText(absolute: string): string {
  try {
    if (statSync(absolute).size > MAX_ATTRIBUTED_BYTES) throw new SessionSearchError('INVALID_ARGUMENT', `${absolute} is too large to attribute its lines.`);
    return readFileSync(absolute, 'utf8');
  } catch (err) {
    if (err instanceof SessionSearchError) throw err;
    throw new SessionSearchError('FILE_NOT_FOUND', `${absolute} cannot be read, so its lines cannot be matched to the edits that wrote them.`);
  }
}

function attribute(text: string, key: string, touched: Session[], store: TurnStore, files: FileIndex, range: { from: number; to: number }): FileHistoryLines {
  // each line masked as the stored edits were: a line an agent wrote with a secret in it matches its (masked) edit
  const lines = text.split(/\r?\n/).map((line) => maskText(line));
  const count = lines.length - (lines.at(-1) === '' ? 1 : 0); // (a last line break ends the last line; it starts none)
  if (range.from > count)
    throw new SessionSearchError(
      'INVALID_ARGUMENT',
      `lines ${range.from}-${range.to} are outside ${key}, which has ${count} line${count === 1 ? '' : 's'}: ask for lines 1-${Math.max(count, 1)} at most.`,
    );
  const edits: WrittenEdit<EditRef>[] = [];
  for (const session of touched) {
    const writes = files.touches(session, key).filter((t) => t.kind === 'edit' || t.kind === 'write');
    if (!writes.length) continue;
    const turns = store.reader(session);
    try {
      for (const touch of writes) {
        const turn = turns.get(touch.turn);
        if (!turn) continue;
        const blocks = writtenBlocks(turn, (path) => files.keyOf(path, session.project) === key);
        const at = turn.timestamp ?? session.created;
        if (blocks.length) edits.push({ ref: { session, turn: touch.turn, at }, at, blocks });
      }
    } finally {
      turns.close();
    }
  }
  const segments = attributeLines(lines.join('\n'), edits, range.from, Math.min(range.to, count)).map((s) => {
    if (!s.ref) return { from: s.from, to: s.to };
    const { session, turn } = s.ref;
    const reader = store.reader(session);
    const request = requestBefore(reader, turn);
    reader.close();
    return {
      from: s.from,
      to: s.to,
      session: session.id,
      topic: session.topic,
      turn: `${session.id}#${turn}`,
      date: s.ref.at,
      source: session.source,
      ...(request ? { request } : {}),
      match: s.match,
    };
  });
  return { from: range.from, to: Math.min(range.to, count), segments };
}
