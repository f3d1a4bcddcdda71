/**
 * Goose keeps its sessions in `sessions/` under its data folder (`~/.local/share/goose/sessions`; Windows
 * `%APPDATA%\Block\goose\data\sessions`; `GOOSE_PATH_ROOT` moves it to `<root>/data/sessions`): since 1.10 one SQLite
 * database `sessions.db` (tables `sessions` with `working_dir`, `name`/`description`, `created_at`, and `messages`
 * with `role`, `content_json`, `created_timestamp`, `metadata_json`), before that one `<id>.jsonl` per session whose
 * first line is the session's metadata (`working_dir`, `description`) and every later line a message
 * `{role, created, content[]}`. Content blocks: `text`, `thinking`, `toolRequest {id, toolCall{status, value{name,
 * arguments}}}`, `toolResponse {id, toolResult{status, value | error}}`, `image`. A message whose metadata says
 * `userVisible: false` is the agent's own bookkeeping and is skipped.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ParsedSession, TurnKind } from '../../model.js';
import { buildSession, hasConversation, type RawTurn } from './build.js';
import { toolKinds } from './content-blocks.js';
import { isRecord, isoTime, readJsonRecords, str } from './line-files.js';
import { asText, rows, tableNames, withDatabase } from './sqlite.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const toolKind = toolKinds(['developer__text_editor_view', 'read', 'view'], ['developer__text_editor', 'write', 'edit']);

/** Tool names look like `developer__shell`; a text editor call is a read or an edit by its `command`. */
function kindOf(name: string, args: unknown): TurnKind {
  if (/text_editor$/.test(name) && isRecord(args)) return args.command === 'view' ? 'file' : 'diff';
  return toolKind(name);
}

function resultText(result: Record<string, unknown>): string {
  if (result.status === 'error') return `[error] ${str(result.error) ?? ''}`.trim();
  const value = result.value;
  const items = Array.isArray(value) ? value : isRecord(value) && Array.isArray(value.content) ? value.content : [];
  return items
    .filter(isRecord)
    .map((c) => str(c.text) ?? (c.type === 'image' ? '[image]' : ''))
    .filter(Boolean)
    .join('\n');
}

/** The turns of one message; `calls` remembers each request's tool and kind for its response. */
export function gooseTurns(
  message: Record<string, unknown>,
  calls: Map<string, { name: string; kind: TurnKind }>,
  timestamp?: string,
  line?: number,
): RawTurn[] {
  if (isRecord(message.metadata) && message.metadata.userVisible === false) return [];
  const role = message.role === 'user' ? 'user' : message.role === 'assistant' ? 'assistant' : undefined;
  if (!role) return [];
  const turns: RawTurn[] = [];
  for (const block of Array.isArray(message.content) ? message.content.filter(isRecord) : []) {
    if (block.type === 'text' && str(block.text)?.trim()) turns.push({ role, kind: 'conversation', text: str(block.text)!, timestamp, line });
    else if (block.type === 'thinking' && str(block.thinking)) turns.push({ role: 'assistant', kind: 'thinking', text: str(block.thinking)!, timestamp, line });
    else if (block.type === 'toolRequest' || block.type === 'frontendToolRequest') {
      const call = isRecord(block.toolCall) && isRecord(block.toolCall.value) ? block.toolCall.value : {};
      const name = str(call.name) ?? 'tool';
      const kind = kindOf(name, call.arguments);
      if (str(block.id)) calls.set(str(block.id)!, { name, kind });
      turns.push({ role: 'assistant', kind, tool: name, text: `${name} ${JSON.stringify(call.arguments ?? {})}`, timestamp, line });
    } else if (block.type === 'toolResponse') {
      const { name, kind } = calls.get(str(block.id) ?? '') ?? { name: 'tool', kind: 'tool' };
      const text = isRecord(block.toolResult) ? resultText(block.toolResult) : '';
      turns.push({ role: 'tool', kind, tool: name, text, timestamp, line });
    } else if (block.type === 'image') turns.push({ role, kind: 'conversation', text: '[image]', timestamp, line });
  }
  return turns;
}

/** Message times are epoch seconds (`created`, `created_timestamp`), sometimes milliseconds. */
const epoch = (v: unknown): string | undefined => (typeof v === 'number' && v > 0 ? new Date(v > 1e11 ? v : v * 1000).toISOString() : isoTime(v));

function parseJson(value: unknown): unknown {
  try {
    return JSON.parse(asText(value) ?? 'null');
  } catch {
    return undefined;
  }
}

async function readDatabase(file: string): Promise<Omit<Parameters<typeof buildSession>[0], 'file' | 'size'>[]> {
  return withDatabase(file, (db) => {
    const tables = tableNames(db);
    if (!tables.has('sessions') || !tables.has('messages')) return [];
    return rows(db, 'SELECT * FROM sessions ORDER BY id').map((s) => {
      const id = String(s.id);
      const calls = new Map<string, { name: string; kind: TurnKind }>();
      const turns: RawTurn[] = [];
      for (const m of rows(db, 'SELECT * FROM messages WHERE session_id = ? ORDER BY created_timestamp, id', [id])) {
        const content = parseJson(m.content_json);
        const metadata = parseJson(m.metadata_json);
        turns.push(...gooseTurns({ role: m.role, content, metadata }, calls, epoch(m.created_timestamp) ?? isoTime(asText(m.timestamp))));
      }
      const name = asText(s.name)?.trim() || asText(s.description)?.trim();
      return {
        source: 'goose' as const,
        nativeId: id,
        filename: id,
        topic: name || undefined,
        created: isoTime(asText(s.created_at)),
        updated: isoTime(asText(s.updated_at)),
        project: asText(s.working_dir) || undefined,
        parentId: asText(s.parent_session_id) ? `goose:${asText(s.parent_session_id)}` : undefined,
        turns,
      };
    });
  });
}

export const gooseSource: SourceAdapter = {
  id: 'goose',
  label: 'Goose',
  defaultRoots: DEFAULT_ROOTS.goose,
  accepts: (file) => basename(file) === 'sessions.db' || file.endsWith('.jsonl'),
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    let raws: Omit<Parameters<typeof buildSession>[0], 'file' | 'size'>[];
    if (basename(file) === 'sessions.db') raws = await readDatabase(file);
    else {
      const id = basename(file, '.jsonl');
      const calls = new Map<string, { name: string; kind: TurnKind }>();
      const turns: RawTurn[] = [];
      let meta: Record<string, unknown> | undefined;
      await readJsonRecords(
        file,
        ctx.logger,
        (record, line) => {
          if (meta === undefined && record.role === undefined) meta = record;
          else turns.push(...gooseTurns(record, calls, epoch(record.created), line));
        },
        true,
        ctx.live,
      );
      const topic = str(meta?.description)?.trim();
      raws = [{ source: 'goose', nativeId: id, filename: id, topic: topic || undefined, project: str(meta?.working_dir), turns }];
    }
    const sessions: ParsedSession[] = [];
    for (const raw of raws) {
      if (hasConversation(raw.turns)) sessions.push(buildSession({ ...raw, file, size: info.size }, info.mtime));
    }
    if (!sessions.length) ctx.logger.info(`${file}: no conversation turns, not indexed`);
    return sessions;
  },
};
