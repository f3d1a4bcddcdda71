/**
 * Crush keeps one SQLite database per project, `<project>/.crush/crush.db`, and lists the projects it has data for in
 * `projects.json` under its data folder (`~/.local/share/crush`; `CRUSH_GLOBAL_DATA` moves it): `{projects: [{path,
 * data_dir}]}`. Tables: `sessions {id, parent_session_id, title, created_at, updated_at}` (Unix seconds) and
 * `messages {id, session_id, role (user | assistant | tool), parts, created_at}` where `parts` is a JSON array of
 * `{type, data}`: `text {text}`, `reasoning {thinking}`, `tool_call {id, name, input}`, `tool_result {tool_call_id,
 * name, content, is_error}`, `finish`, images and binary attachments.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { ParsedSession } from '../../model.js';
import { buildSession, hasConversation, type RawTurn } from './build.js';
import { toolKinds } from './content-blocks.js';
import { isRecord, isoTime, str } from './line-files.js';
import { asText, rows, tableNames, withDatabase } from './sqlite.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const toolKind = toolKinds(['view', 'ls', 'glob', 'grep'], ['edit', 'multiedit', 'write']);

/** Times are Unix seconds (milliseconds in some versions); 0 or none is no time. */
const unix = (v: unknown): string | undefined => (typeof v === 'number' && v > 0 ? isoTime(v) : undefined);

function parts(value: unknown): Record<string, unknown>[] {
  try {
    const parsed: unknown = JSON.parse(asText(value) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isRecord) : [];
  } catch {
    return [];
  }
}

function messageTurns(role: unknown, value: unknown, names: Map<string, string>, timestamp?: string): RawTurn[] {
  const turns: RawTurn[] = [];
  const speaker = role === 'user' ? 'user' : 'assistant';
  for (const part of parts(value)) {
    const data = isRecord(part.data) ? part.data : part;
    if (part.type === 'text' && str(data.text)?.trim()) turns.push({ role: speaker, kind: 'conversation', text: str(data.text)!, timestamp });
    else if (part.type === 'reasoning' && str(data.thinking)?.trim()) turns.push({ role: 'assistant', kind: 'thinking', text: str(data.thinking)!, timestamp });
    else if (part.type === 'tool_call') {
      const name = str(data.name) ?? 'tool';
      if (str(data.id)) names.set(str(data.id)!, name);
      turns.push({ role: 'assistant', kind: toolKind(name), tool: name, text: `${name} ${str(data.input) ?? JSON.stringify(data.input ?? {})}`, timestamp });
    } else if (part.type === 'tool_result') {
      const name = str(data.name) ?? names.get(str(data.tool_call_id) ?? '') ?? 'tool';
      const text = `${data.is_error === true ? '[error] ' : ''}${str(data.content) ?? ''}`;
      turns.push({ role: 'tool', kind: toolKind(name), tool: name, text, timestamp });
    }
  }
  return turns;
}

export const crushSource: SourceAdapter = {
  id: 'crush',
  label: 'Crush',
  defaultRoots: DEFAULT_ROOTS.crush,
  accepts: (file) => basename(file) === 'crush.db',
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    // the store lies in the project's `.crush` folder
    const project = basename(dirname(file)) === '.crush' ? dirname(dirname(file)) : undefined;
    const sessions: ParsedSession[] = await withDatabase(file, (db) => {
      const tables = tableNames(db);
      if (!tables.has('sessions') || !tables.has('messages')) return [];
      const out: ParsedSession[] = [];
      for (const s of rows(db, 'SELECT * FROM sessions ORDER BY created_at, id')) {
        const id = String(s.id);
        const names = new Map<string, string>();
        const turns: RawTurn[] = [];
        for (const m of rows(db, 'SELECT * FROM messages WHERE session_id = ? ORDER BY created_at, rowid', [id]))
          turns.push(...messageTurns(m.role, m.parts, names, unix(m.created_at)));
        if (!hasConversation(turns)) continue;
        const parent = asText(s.parent_session_id);
        const session = buildSession(
          {
            source: 'crush',
            nativeId: id,
            filename: id,
            topic: asText(s.title)?.trim() || undefined,
            file,
            size: info.size,
            created: unix(s.created_at),
            updated: unix(s.updated_at),
            project,
            parentId: parent ? `crush:${parent}` : undefined,
            turns,
          },
          info.mtime,
        );
        out.push(session);
      }
      return out;
    });
    if (!sessions.length) ctx.logger.info(`${file}: no conversation turns, not indexed`);
    return sessions;
  },
};
