/**
 * Gemini CLI: `~/.gemini/tmp/<project>/chats/session-*.json` (one document, rewritten whole) or `.jsonl` (an event log:
 * a message re-appended whenever it changes, last copy of an id wins; `$set` merges metadata; `$rewindTo` drops a
 * message and all after it), and `logs.json` (user prompts only, for sessions that have no chat file).
 * Projects: `.project_root` in the project folder, else `~/.gemini/projects.json`, else the session's directories.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { ParsedSession, TurnKind } from '../../model.js';
import { buildSession, latestTime, type RawTurn } from './build.js';
import { isRecord, isoTime, readJsonRecords, str } from './line-files.js';
import type { SourceAdapter, SourceContext } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const MAX_JSON_BYTES = 256 * 1024 * 1024;
const FILE_TOOLS = new Set(['read_file', 'read_many_files', 'list_directory', 'glob']);
const DIFF_TOOLS = new Set(['write_file', 'replace', 'edit']);

const isLogs = (name: string): boolean => name === 'logs.json' || name.endsWith('-logs.json');

function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (isRecord(p) ? (str(p.text) ?? (p.inlineData ? '[attachment]' : '')) : ''))
    .filter(Boolean)
    .join('\n');
}

function toolOutput(call: Record<string, unknown>): string {
  const results = Array.isArray(call.result) ? call.result : [];
  const outputs = results.map((r) => {
    const response = isRecord(r) && isRecord(r.functionResponse) && isRecord(r.functionResponse.response) ? r.functionResponse.response : undefined;
    const out = response?.output ?? response?.error;
    return typeof out === 'string' ? out : out === undefined ? '' : JSON.stringify(out);
  });
  const text = outputs.filter(Boolean).join('\n');
  if (text) return text;
  return typeof call.resultDisplay === 'string' ? call.resultDisplay : '';
}

/** One Gemini message as turns: the prompt or reply, its thoughts, its tool calls and their results. */
export function geminiMessageTurns(m: Record<string, unknown>): RawTurn[] {
  const timestamp = isoTime(m.timestamp);
  const type = str(m.type);
  const turns: RawTurn[] = [];
  if (type === 'user') turns.push({ role: 'user', kind: 'conversation', text: partsText(m.content), timestamp });
  if (type !== 'gemini' && type !== 'model') return turns;
  for (const t of Array.isArray(m.thoughts) ? m.thoughts : []) {
    if (isRecord(t))
      turns.push({
        role: 'assistant',
        kind: 'thinking',
        text: [str(t.subject), str(t.description)].filter(Boolean).join(': '),
        timestamp: isoTime(t.timestamp) ?? timestamp,
      });
  }
  const reply = partsText(m.content);
  if (reply) turns.push({ role: 'assistant', kind: 'conversation', text: reply, timestamp });
  for (const call of Array.isArray(m.toolCalls) ? m.toolCalls : []) {
    if (!isRecord(call)) continue;
    const name = str(call.name) ?? 'tool';
    const kind: TurnKind = FILE_TOOLS.has(name) ? 'file' : DIFF_TOOLS.has(name) ? 'diff' : 'tool';
    const at = isoTime(call.timestamp) ?? timestamp;
    turns.push({ role: 'assistant', kind, tool: name, text: `${name} ${JSON.stringify(call.args ?? {})}`, timestamp: at });
    const output = toolOutput(call);
    if (output) turns.push({ role: 'tool', kind, tool: name, text: output, timestamp: at });
  }
  return turns;
}

interface GeminiDoc {
  meta: Record<string, unknown>;
  messages: Record<string, unknown>[];
  /** The latest time any record of a JSONL chat gives (its last activity). */
  latest?: string;
}

async function readJsonl(file: string, ctx: SourceContext): Promise<GeminiDoc> {
  const doc: GeminiDoc = { meta: {}, messages: [] };
  let order: string[] = [];
  const byId = new Map<string, Record<string, unknown>>();
  await readJsonRecords(
    file,
    ctx.logger,
    (value, lineNo) => {
      doc.latest = latestTime(doc.latest, isoTime(value.timestamp), isRecord(value.$set) ? isoTime(value.$set.lastUpdated) : undefined);
      if (isRecord(value.$set)) {
        const { messages, ...rest } = value.$set;
        Object.assign(doc.meta, rest);
        if (Array.isArray(messages)) {
          order = [];
          byId.clear();
          for (const m of messages.filter(isRecord)) {
            const id = str(m.id) ?? `#${order.length}`;
            order.push(id);
            byId.set(id, m);
          }
        }
      } else if (typeof value.$rewindTo === 'string') {
        const at = order.indexOf(value.$rewindTo);
        for (const id of order.splice(at === -1 ? 0 : at)) byId.delete(id);
      } else if (str(value.type) && (value.id !== undefined || value.content !== undefined)) {
        const id = value.id === undefined ? `#${order.length}` : String(value.id);
        if (!byId.has(id)) order.push(id);
        byId.set(id, value);
      } else if (lineNo === 1 || str(value.sessionId)) {
        Object.assign(doc.meta, value);
      }
    },
    false,
  );
  doc.messages = order.map((id) => byId.get(id)!);
  return doc;
}

/** The project path of a `tmp/<project>` folder: its `.project_root`, else the reverse of `projects.json`. */
function projectOf(projectDir: string, root: string): string | undefined {
  const marker = join(projectDir, '.project_root');
  try {
    if (existsSync(marker)) return readFileSync(marker, 'utf8').trim() || undefined;
    const registry = join(dirname(root), 'projects.json');
    if (existsSync(registry)) {
      const parsed: unknown = JSON.parse(readFileSync(registry, 'utf8'));
      const projects = isRecord(parsed) && isRecord(parsed.projects) ? parsed.projects : {};
      const slug = basename(projectDir);
      return Object.entries(projects).find(([, v]) => v === slug)?.[0];
    }
  } catch {
    // an unreadable marker only costs the project name
  }
  return undefined;
}

function sessionFrom(doc: GeminiDoc, file: string, root: string, size: number, mtime: Date): ParsedSession | undefined {
  const turns = doc.messages.flatMap(geminiMessageTurns);
  if (!turns.length) return undefined;
  const chatsDir = dirname(file);
  const projectDir = basename(chatsDir) === 'chats' ? dirname(chatsDir) : dirname(dirname(chatsDir));
  const dirs = Array.isArray(doc.meta.directories) ? doc.meta.directories.filter((d): d is string => typeof d === 'string') : [];
  const sessionId = str(doc.meta.sessionId) ?? basename(file).replace(/\.jsonl?$/, '');
  return buildSession(
    {
      source: 'gemini',
      nativeId: sessionId,
      topic: str(doc.meta.summary),
      filename: basename(file).replace(/\.jsonl?$/, ''),
      file,
      size,
      created: isoTime(doc.meta.startTime),
      updated: latestTime(isoTime(doc.meta.lastUpdated), doc.latest),
      project: projectOf(projectDir, root) ?? dirs[0],
      parentId: doc.meta.kind === 'subagent' && basename(chatsDir) !== 'chats' ? `gemini:${basename(chatsDir)}` : undefined,
      turns,
    },
    mtime,
  );
}

/** logs.json: user prompts per session, a fallback for sessions whose chat file is gone or never existed. */
async function readLogs(file: string, root: string, size: number, mtime: Date): Promise<ParsedSession[]> {
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!Array.isArray(parsed)) return [];
  const bySession = new Map<string, RawTurn[]>();
  for (const entry of parsed.filter(isRecord)) {
    const id = str(entry.sessionId);
    if (!id || entry.type !== 'user' || typeof entry.message !== 'string') continue;
    if (!bySession.has(id)) bySession.set(id, []);
    bySession.get(id)!.push({ role: 'user', kind: 'conversation', text: entry.message, timestamp: isoTime(entry.timestamp) });
  }
  const project = projectOf(dirname(file), root);
  return [...bySession].map(([id, turns]) => buildSession({ source: 'gemini', nativeId: id, filename: 'logs', file, size, project, turns }, mtime));
}

export const geminiSource: SourceAdapter = {
  id: 'gemini',
  label: 'Gemini CLI',
  defaultRoots: DEFAULT_ROOTS.gemini,
  accepts(file, root) {
    const name = basename(file);
    if (isLogs(name)) return true;
    if (!/\.jsonl?$/.test(name)) return false;
    return relative(root, file).split(sep).includes('chats') || /^session.*\.jsonl?$|-session\.json$/.test(name);
  },
  async readFile(file, root, ctx) {
    const info = await stat(file);
    if (isLogs(basename(file))) return readLogs(file, root, info.size, info.mtime);
    if (info.size > MAX_JSON_BYTES) {
      ctx.logger.warn(`${file}: skipped, ${info.size} bytes is over the ${MAX_JSON_BYTES}-byte limit`);
      return [];
    }
    let doc: GeminiDoc;
    if (file.endsWith('.jsonl')) doc = await readJsonl(file, ctx);
    else {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (!isRecord(parsed)) throw new Error('not a Gemini session (expected a JSON object)');
      const { messages, ...meta } = parsed;
      doc = { meta, messages: Array.isArray(messages) ? messages.filter(isRecord) : [] };
    }
    const session = sessionFrom(doc, file, root, info.size, info.mtime);
    if (!session) ctx.logger.info(`${file}: no conversation turns, not indexed`);
    return session ? [session] : [];
  },
  async finalize(sessions) {
    // A chat file is the whole session; its prompts in logs.json add nothing. A .jsonl beside a .json wins.
    const fromChats = new Map<string, ParsedSession>();
    for (const s of sessions) {
      if (s.filename === 'logs') continue;
      const other = fromChats.get(s.nativeId);
      if (!other || s.file.endsWith('.jsonl')) fromChats.set(s.nativeId, s);
    }
    for (let i = sessions.length - 1; i >= 0; i--) {
      const s = sessions[i];
      const chat = fromChats.get(s.nativeId);
      if (chat && chat !== s) sessions.splice(i, 1);
    }
  },
};
