/**
 * OpenCode: up to 1.1 a JSON tree under `~/.local/share/opencode/storage/` (`session/<project>/<id>.json`,
 * `message/<session>/*.json`, `part/<message>/*.json`); since 1.2 one SQLite database `opencode.db` (`OPENCODE_DB`
 * moves it) with `session`, `message` and `part` tables holding JSON in a `data` column.
 */
import { errorMessage } from '../../errors.js';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { ParsedSession, TurnKind } from '../../model.js';
import { buildSession, type RawTurn } from './build.js';
import { isRecord, isoTime, str } from './line-files.js';
import { asText, rows, tableNames, withDatabase } from './sqlite.js';
import type { SourceAdapter, SourceContext } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

type Json = Record<string, unknown>;

function partTurns(part: Json, role: 'user' | 'assistant', timestamp?: string): RawTurn[] {
  const type = str(part.type);
  if (type === 'text' && str(part.text)) return [{ role, kind: 'conversation', text: str(part.text)!, timestamp }];
  if (type === 'reasoning' && str(part.text)) return [{ role: 'assistant', kind: 'thinking', text: str(part.text)!, timestamp }];
  if (type === 'tool') {
    const name = str(part.tool) ?? 'tool';
    const state = isRecord(part.state) ? part.state : {};
    const kind: TurnKind = /^(read|glob|list|grep)$/i.test(name) ? 'file' : /^(write|edit|patch|multiedit)$/i.test(name) ? 'diff' : 'tool';
    const output = state.output === undefined ? '' : typeof state.output === 'string' ? state.output : JSON.stringify(state.output);
    const turns: RawTurn[] = [{ role: 'assistant', kind, tool: name, text: `${name} ${JSON.stringify(state.input ?? {})}`, timestamp }];
    if (output) turns.push({ role: 'tool', kind, tool: name, text: output, timestamp });
    return turns;
  }
  if (type === 'patch' && Array.isArray(part.files)) return [{ role: 'assistant', kind: 'diff', text: `Patched ${part.files.join(', ')}`, timestamp }];
  return [];
}

interface Conversation {
  session: Json;
  messages: { message: Json; parts: Json[] }[];
}

/** OpenCode's title before it names a session (`New session - <time>`, `Child session - <time>`): says nothing. */
const placeholderTitle = (title: string | undefined): boolean => !!title && /^(New|Child) session - \d{4}-\d\d-\d\d/.test(title);

function toSession(c: Conversation, file: string, size: number, mtime: Date): ParsedSession | undefined {
  const turns: RawTurn[] = [];
  const ordered = [...c.messages].sort(
    (a, b) => Number((a.message.time as Json | undefined)?.created ?? 0) - Number((b.message.time as Json | undefined)?.created ?? 0),
  );
  for (const { message, parts } of ordered) {
    const role = message.role === 'user' ? 'user' : 'assistant';
    const timestamp = isoTime((message.time as Json | undefined)?.created);
    for (const part of parts) turns.push(...partTurns(part, role, timestamp));
  }
  if (!turns.length) return undefined;
  const time = isRecord(c.session.time) ? c.session.time : {};
  const id = str(c.session.id) ?? basename(file);
  return buildSession(
    {
      source: 'opencode',
      nativeId: id,
      topic: placeholderTitle(str(c.session.title)) ? undefined : str(c.session.title),
      filename: id,
      file,
      size,
      created: isoTime(time.created),
      updated: isoTime(time.updated),
      project: str(c.session.directory),
      parentId: str(c.session.parentID) ? `opencode:${str(c.session.parentID)}` : undefined,
      turns,
    },
    mtime,
  );
}

async function readJsonFolder(dir: string, ctx: SourceContext): Promise<Json[]> {
  if (!existsSync(dir)) return [];
  const out: Json[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()) {
    try {
      const value: unknown = JSON.parse(await readFile(join(dir, name), 'utf8'));
      if (isRecord(value)) out.push(value);
    } catch (err) {
      ctx.logger.warn(`${join(dir, name)}: skipped, ${errorMessage(err)}`);
    }
  }
  return out;
}

/** A session file of the JSON layout, with its messages and their parts from the sibling folders. */
async function readJsonSession(file: string, ctx: SourceContext): Promise<Conversation | undefined> {
  const session: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!isRecord(session)) return undefined;
  const storage = dirname(dirname(dirname(file)));
  const messages = await readJsonFolder(join(storage, 'message', str(session.id) ?? basename(file, '.json')), ctx);
  return {
    session,
    messages: await Promise.all(messages.map(async (message) => ({ message, parts: await readJsonFolder(join(storage, 'part', str(message.id) ?? ''), ctx) }))),
  };
}

function parseData(value: unknown): Json {
  try {
    const parsed: unknown = JSON.parse(asText(value) ?? '{}');
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

async function readDatabase(file: string): Promise<Conversation[]> {
  return withDatabase(file, (db) => {
    const tables = tableNames(db);
    if (!tables.has('session') || !tables.has('message')) return [];
    // a session whose directory is empty works in its project's worktree
    const worktrees = new Map<unknown, unknown>(
      tables.has('project') ? rows(db, 'SELECT * FROM project').map((r) => [r.id, r.worktree ?? parseData(r.data).worktree]) : [],
    );
    const sessions = rows(db, 'SELECT * FROM session').map((r) => {
      const session: Json = { ...parseData(r.data), ...pick(r, ['id', 'title', 'directory', 'parent_id', 'project_id']) };
      if (!str(session.directory)) session.directory = worktrees.get(session.project_id ?? session.projectID);
      return session;
    });
    const messages = rows(db, 'SELECT * FROM message').map((r) => ({ ...parseData(r.data), id: r.id, sessionID: r.session_id ?? parseData(r.data).sessionID }));
    const parts = tables.has('part')
      ? rows(db, 'SELECT * FROM part').map((r) => ({ ...parseData(r.data), messageID: r.message_id ?? parseData(r.data).messageID }))
      : [];
    return sessions.map((session) => ({
      session: { ...session, parentID: session.parentID ?? session.parent_id },
      messages: messages.filter((m) => m.sessionID === session.id).map((message) => ({ message, parts: parts.filter((p) => p.messageID === message.id) })),
    }));
  });
}

function pick(row: Json, keys: string[]): Json {
  const out: Json = {};
  for (const k of keys) if (row[k] !== undefined && row[k] !== null) out[k] = row[k];
  return out;
}

export const openCodeSource: SourceAdapter = {
  id: 'opencode',
  label: 'OpenCode',
  defaultRoots: DEFAULT_ROOTS.opencode,
  accepts(file, root) {
    if (basename(file) === 'opencode.db') return true;
    const parts = relative(root, file).split(sep);
    const at = parts.lastIndexOf('session');
    return file.endsWith('.json') && at > 0 && parts[at - 1] === 'storage' && parts.length - at === 3;
  },
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    const conversations =
      basename(file) === 'opencode.db' ? await readDatabase(file) : [await readJsonSession(file, ctx)].filter((c): c is Conversation => !!c);
    const sessions = conversations.map((c) => toSession(c, file, info.size, info.mtime)).filter((s): s is ParsedSession => !!s);
    if (!sessions.length) ctx.logger.info(`${file}: no conversation turns, not indexed`);
    return sessions;
  },
};
