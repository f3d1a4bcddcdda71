/**
 * `team push`: sends this machine's sessions of the chosen projects to the team archive, in the archive's form (masked
 * when they were read; never the raw transcripts). Incremental and idempotent: the database's own record of each
 * session (how many turns, a hash chained over them) says what it lacks, so a session whose turns grew gets only the
 * new ones, one unchanged is skipped, and a push killed half way resumes where it stopped. Each session is written in
 * one transaction: the archive holds whole sessions only.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { PoolClient } from 'pg';
import type { Session, Turn } from '../model.js';
import { INDEXED_CHARS_PER_TOOL_TURN } from '../library/options.js';
import { SCHEMA } from './schema.js';
import { TeamError, type TeamDatabase } from './connection.js';

/** Text PostgreSQL ranks a session on, per field (the turns themselves are stored whole). */
const FIELD_CHARS = 200_000;

export interface PushOptions {
  machine: string;
  /** Projects to push: folder paths or folder names. Nothing is pushed without one. */
  projects: readonly string[];
  /** A session's turns (the library's turn store: `library.turns.all`). */
  turns: (session: Session) => readonly Turn[];
  onProgress?: (p: PushProgress) => void;
}

export interface PushProgress {
  done: number;
  total: number;
  sent: number;
  turns: number;
}

export interface PushResult {
  role: string;
  machine: string;
  /** Sessions of the chosen projects. */
  selected: number;
  /** Sessions written whole (new, or changed other than by appending). */
  written: number;
  /** Sessions that got only their new turns. */
  appended: number;
  unchanged: number;
  /** Turns sent. */
  turns: number;
}

/** The name of a project folder, as the team archive and `team share` know it. */
export function projectName(path: string | undefined): string {
  return path ? basename(path.replace(/[\\/]+$/, '')) : '';
}

/** Whether a session's folder is one of the chosen projects (the folder, a folder inside it, or one of that name). */
export function chosen(project: string | undefined, projects: readonly string[]): boolean {
  if (!project) return false;
  const norm = (p: string): string => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const folder = norm(project);
  return projects.some((p) => {
    const want = norm(p);
    return want.includes('/') ? folder === want || folder.startsWith(`${want}/`) : projectName(folder) === want;
  });
}

/** PostgreSQL text cannot hold NUL. */
const clean = (text: string): string => (text.includes('\0') ? text.replaceAll('\0', '') : text);

/** Hashes chained over the turns: `chain[k]` stands for the first k turns. */
export function turnChain(turns: readonly Turn[]): string[] {
  const chain = [''];
  for (const t of turns)
    chain.push(
      createHash('sha1')
        .update(chain[chain.length - 1])
        .update(`${t.role}\0${t.kind}\0${t.tool ?? ''}\0`)
        .update(t.text)
        .digest('hex'),
    );
  return chain;
}

/** What PostgreSQL ranks the session on: the conversation, and the first part of everything else. */
function rankedText(turns: readonly Turn[]): { conversation: string; messages: string } {
  let conversation = '';
  let messages = '';
  for (const t of turns) {
    if (t.kind === 'conversation') {
      if (conversation.length < FIELD_CHARS) conversation += `${t.text}\n\n`;
    } else if (messages.length < FIELD_CHARS) messages += `${t.text.slice(0, INDEXED_CHARS_PER_TOOL_TURN)}\n\n`;
  }
  return { conversation: clean(conversation.slice(0, FIELD_CHARS)), messages: clean(messages.slice(0, FIELD_CHARS)) };
}

const validTime = (iso: string | undefined): string | null => (iso && !Number.isNaN(Date.parse(iso)) ? iso : null);
const validDay = (day: string | undefined): string | null => (day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null);

async function insertTurns(client: PoolClient, machine: string, session: Session, all: readonly Turn[], from: number): Promise<number> {
  const turns = all.slice(from);
  if (!turns.length) return 0;
  await client.query(
    `INSERT INTO ${SCHEMA}.turns (machine, session_id, idx, role, kind, tool, at, text)
     SELECT $1, $2, * FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])`,
    [
      machine,
      session.id,
      turns.map((_, i) => from + i),
      turns.map((t) => t.role),
      turns.map((t) => t.kind),
      turns.map((t) => t.tool ?? null),
      turns.map((t) => t.timestamp ?? null),
      turns.map((t) => clean(t.text)),
    ],
  );
  return turns.length;
}

/** Writes one session in one transaction: its row, and its turns from `from` on (all of them when `from` is 0). */
async function writeSession(client: PoolClient, machine: string, session: Session, turns: readonly Turn[], from: number, hash: string): Promise<number> {
  const { conversation, messages } = rankedText(turns);
  await client.query('BEGIN');
  try {
    if (from === 0) await client.query(`DELETE FROM ${SCHEMA}.turns WHERE owner = current_user AND machine = $1 AND session_id = $2`, [machine, session.id]);
    await client.query(
      `INSERT INTO ${SCHEMA}.sessions (machine, id, source, project, project_path, branch, title, created, updated, first_day, last_day,
         turn_count, turns_hash, conversation, messages, pushed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, now())
       ON CONFLICT (owner, machine, id) DO UPDATE SET source = excluded.source, project = excluded.project,
         project_path = excluded.project_path, branch = excluded.branch, title = excluded.title, created = excluded.created,
         updated = excluded.updated, first_day = excluded.first_day, last_day = excluded.last_day, turn_count = excluded.turn_count,
         turns_hash = excluded.turns_hash, conversation = excluded.conversation, messages = excluded.messages, pushed_at = now()`,
      [
        machine,
        session.id,
        session.source,
        projectName(session.project),
        session.project ?? null,
        session.branch ?? null,
        clean(session.topic),
        validTime(session.created),
        validTime(session.updated),
        validDay(session.firstDay),
        validDay(session.lastDay),
        turns.length,
        hash,
        conversation,
        messages,
      ],
    );
    const sent = await insertTurns(client, machine, session, turns, from);
    await client.query('COMMIT');
    return sent;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Pushes the sessions of the chosen projects; see the file comment. */
export async function pushSessions(db: TeamDatabase, sessions: Iterable<Session>, options: PushOptions): Promise<PushResult> {
  if (!options.projects.length)
    throw new TeamError('name the projects to push with --project <folder or name> (nothing is pushed by default, so nothing is shared by mistake).');
  if (!options.machine.trim()) throw new TeamError('the machine name is empty: give one with --machine.');
  const role = await db.role();
  const machine = options.machine.trim();
  const selected = [...sessions].filter((s) => chosen(s.project, options.projects)).sort((a, b) => a.id.localeCompare(b.id));
  const result: PushResult = { role, machine, selected: selected.length, written: 0, appended: 0, unchanged: 0, turns: 0 };
  await db.withClient(async (client) => {
    const { rows } = await client.query<{ id: string; turn_count: number; turns_hash: string }>(
      `SELECT id, turn_count, turns_hash FROM ${SCHEMA}.sessions WHERE owner = current_user AND machine = $1`,
      [machine],
    );
    const held = new Map(rows.map((r) => [r.id, r]));
    let done = 0;
    for (const session of selected) {
      const turns = options.turns(session);
      const chain = turnChain(turns);
      const hash = chain[chain.length - 1];
      const there = held.get(session.id);
      if (there && there.turn_count === turns.length && there.turns_hash === hash) result.unchanged++;
      else {
        // turns appended since the last push keep the pushed ones: only the new ones are sent
        const appends = !!there && there.turn_count > 0 && there.turn_count < turns.length && chain[there.turn_count] === there.turns_hash;
        const from = appends ? there.turn_count : 0;
        result.turns += await writeSession(client, machine, session, turns, from, hash);
        if (appends) result.appended++;
        else result.written++;
      }
      options.onProgress?.({ done: ++done, total: selected.length, sent: result.written + result.appended, turns: result.turns });
    }
  });
  return result;
}
