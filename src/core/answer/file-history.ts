/**
 * `file_history` / `session-search files`: the sessions whose agent touched a file, newest first, each with its turns
 * and the request that led to them; with `lines`, which session's edit wrote those lines as they are on disk now.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { IndexingState } from '../contracts.js';
import { SessionSearchError } from '../errors.js';
import type { FileIndex } from '../files/file-index.js';
import { attributeLines, writtenBlocks, type WrittenEdit } from '../files/attribution.js';
import type { FileTouch, TouchKind } from '../files/touches.js';
import { isPrompt, type Session } from '../model.js';

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

export interface FileHistoryTouch {
  /** The turn's docid (read_session, the reader). */
  turn: string;
  kind: TouchKind;
  at?: string;
  /** For edits and writes: the start of the text written. */
  hunk?: string;
}

export interface FileHistorySession {
  id: string;
  source: string;
  topic: string;
  project?: string;
  date: string;
  touches: FileHistoryTouch[];
  /** The user's request the first of these touches answered. */
  request?: string;
}

export interface FileHistoryLines {
  from: number;
  to: number;
  /** Runs of lines, each written by one session's edit, or by none that still matches (`session` absent). */
  segments: {
    from: number;
    to: number;
    session?: string;
    topic?: string;
    turn?: string;
    date?: string;
    source?: string;
    request?: string;
    match?: 'exact' | 'whitespace';
  }[];
}

export interface FileHistoryResponse {
  success: true;
  /** The file asked about, as the index keys it (its repository's path for a worktree's file). */
  path: string;
  /** Sessions returned; `total` touched the file. */
  count: number;
  total: number;
  sessions: FileHistorySession[];
  lines?: FileHistoryLines;
  /** While the first load runs: how far it is (sessions not read yet are not listed). */
  indexing?: IndexingState;
}

const DEFAULT_LIMIT = 20;
const HUNK_CHARS = 600;
const REQUEST_CHARS = 300;
/** Files larger than this are not read to attribute lines. */
const MAX_ATTRIBUTED_BYTES = 8 * 1024 * 1024;

export function fileHistory(sessions: ReadonlyMap<string, Session>, files: FileIndex, query: FileHistoryQuery): FileHistoryResponse {
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
  const shown = touched.slice(0, limit).map((s) => describe(s, files.touches(s, key)));
  const response: FileHistoryResponse = { success: true, path: key, count: shown.length, total: touched.length, sessions: shown };
  if (range) response.lines = attribute(query.text ?? readText(absolute), key, touched, files, range);
  return response;
}

function parseLines(lines: string): { from: number; to: number } {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(lines);
  const from = m ? Number(m[1]) : NaN;
  const to = m?.[2] ? Number(m[2]) : from;
  if (!m || from < 1 || to < from) throw new SessionSearchError('INVALID_ARGUMENT', `lines must be "42" or "40-80" (1-based, from ≤ to), got "${lines}".`);
  return { from, to };
}

function describe(session: Session, touches: FileTouch[]): FileHistorySession {
  const turns = session.turns;
  const out: FileHistorySession = {
    id: session.id,
    source: session.source,
    topic: session.topic,
    date: session.updated,
    touches: touches.map((t) => {
      const turn = turns[t.turn];
      const entry: FileHistoryTouch = { turn: `${session.id}#${t.turn}`, kind: t.kind };
      if (turn?.timestamp) entry.at = turn.timestamp;
      if (turn && (t.kind === 'edit' || t.kind === 'write')) {
        const hunk = writtenBlocks(turn, () => true).join('\n…\n');
        if (hunk) entry.hunk = hunk.length > HUNK_CHARS ? `${hunk.slice(0, HUNK_CHARS)}…` : hunk;
      }
      return entry;
    }),
  };
  if (session.project) out.project = session.project;
  const request = touches.length ? requestBefore(session, touches[0].turn) : undefined;
  if (request) out.request = request;
  return out;
}

/** The last prompt before a turn: what the user asked that the agent was doing. */
function requestBefore(session: Session, turn: number): string | undefined {
  const turns = session.turns;
  for (let i = Math.min(turn, turns.length - 1); i >= 0; i--) {
    if (isPrompt(turns[i])) {
      const text = turns[i].text.replace(/\s+/g, ' ').trim();
      return text.length > REQUEST_CHARS ? `${text.slice(0, REQUEST_CHARS - 1)}…` : text;
    }
  }
  return undefined;
}

interface EditRef {
  session: Session;
  turn: number;
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

function attribute(text: string, key: string, touched: Session[], files: FileIndex, range: { from: number; to: number }): FileHistoryLines {
  const edits: WrittenEdit<EditRef>[] = [];
  for (const session of touched) {
    const turns = session.turns;
    for (const touch of files.touches(session, key)) {
      if (touch.kind !== 'edit' && touch.kind !== 'write') continue;
      const turn = turns[touch.turn];
      if (!turn) continue;
      const blocks = writtenBlocks(turn, (path) => files.keyOf(path, session.project) === key);
      if (blocks.length) edits.push({ ref: { session, turn: touch.turn }, at: turn.timestamp ?? session.created, blocks });
    }
  }
  const segments = attributeLines(text, edits, range.from, range.to).map((s) => {
    if (!s.ref) return { from: s.from, to: s.to };
    const { session, turn } = s.ref;
    const request = requestBefore(session, turn);
    return {
      from: s.from,
      to: s.to,
      session: session.id,
      topic: session.topic,
      turn: `${session.id}#${turn}`,
      date: session.turns[turn]?.timestamp ?? session.updated,
      source: session.source,
      ...(request ? { request } : {}),
      match: s.match,
    };
  });
  return { from: range.from, to: Math.min(range.to, text.split(/\r?\n/).length), segments };
}
