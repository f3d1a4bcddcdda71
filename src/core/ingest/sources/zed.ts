/**
 * Zed's agent threads: one SQLite database `threads/threads.db` under Zed's data folder (`~/.local/share/zed`,
 * `XDG_DATA_HOME`; macOS `~/Library/Application Support/Zed`; Windows `%LOCALAPPDATA%\Zed`). Table `threads {id,
 * summary, updated_at, data_type (json | zstd), data, folder_paths?, created_at?, parent_id?}`; `data` is the thread
 * as JSON, zstd-compressed in current versions (decompressed with fzstd): `{messages: [{User: {content: [{Text}…]}} |
 * {Agent: {content: [{Text} | {Thinking: {text}} | {ToolUse: {id, name, input}}], tool_results: {<id>: {tool_name,
 * output | content, is_error}}}}]}`. Mentions, images and other blocks are skipped.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { decompress } from 'fzstd';
import type { ParsedSession } from '../../model.js';
import { buildSession, hasConversation, type RawTurn } from './build.js';
import { toolKinds } from './content-blocks.js';
import { isRecord, isoTime, str } from './line-files.js';
import { asText, rows, tableNames, withDatabase } from './sqlite.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

type Json = Record<string, unknown>;
const toolKind = toolKinds(['read_file', 'list_directory', 'find_path', 'grep'], ['edit_file', 'create_file', 'delete_path', 'move_path']);

/** The text leaves of a content list: `{Text: "…"}` or `{Text: {text}}`. */
function texts(content: unknown, key = 'Text'): string {
  const out: string[] = [];
  for (const block of Array.isArray(content) ? content.filter(isRecord) : []) {
    const leaf = block[key];
    const text = typeof leaf === 'string' ? leaf : isRecord(leaf) ? str(leaf.text) : undefined;
    if (text?.trim()) out.push(text);
  }
  return out.join('\n');
}

function resultText(result: unknown): string {
  if (!isRecord(result)) return '';
  const body = str(result.output) || texts(result.content) || (typeof result.content === 'string' ? result.content : '');
  return `${result.is_error === true ? '[error] ' : ''}${body}`;
}

export function zedTurns(doc: Json): RawTurn[] {
  const turns: RawTurn[] = [];
  for (const message of Array.isArray(doc.messages) ? doc.messages.filter(isRecord) : []) {
    if (isRecord(message.User)) {
      const text = texts(message.User.content);
      if (text) turns.push({ role: 'user', kind: 'conversation', text });
    } else if (isRecord(message.Agent)) {
      const agent = message.Agent;
      const results = isRecord(agent.tool_results) ? agent.tool_results : {};
      for (const block of Array.isArray(agent.content) ? agent.content.filter(isRecord) : []) {
        const thinking = isRecord(block.Thinking) ? str(block.Thinking.text) : undefined;
        if (thinking?.trim()) turns.push({ role: 'assistant', kind: 'thinking', text: thinking });
        const text = texts([block]);
        if (text) turns.push({ role: 'assistant', kind: 'conversation', text });
        if (isRecord(block.ToolUse)) {
          const use = block.ToolUse;
          const name = str(use.name) ?? 'tool';
          const kind = toolKind(name);
          turns.push({ role: 'assistant', kind, tool: name, text: `${name} ${JSON.stringify(use.input ?? use.raw_input ?? {})}` });
          const output = resultText(results[str(use.id) ?? '']);
          if (output) turns.push({ role: 'tool', kind, tool: name, text: output });
        }
      }
    }
  }
  return turns;
}

function threadDoc(dataType: unknown, data: unknown): Json | undefined {
  const bytes = data instanceof Uint8Array ? data : typeof data === 'string' ? Buffer.from(data, 'utf8') : undefined;
  if (!bytes) return undefined;
  const type = (asText(dataType) ?? 'json').toLowerCase();
  const json = type === 'zstd' ? Buffer.from(decompress(bytes)).toString('utf8') : type === 'json' ? Buffer.from(bytes).toString('utf8') : undefined;
  const parsed: unknown = json === undefined ? undefined : JSON.parse(json);
  return isRecord(parsed) ? parsed : undefined;
}

/** Zed names a thread "New Thread" until its summary is written: a placeholder, not a title. */
function threadTitle(summary: string | undefined): string | undefined {
  const title = summary?.trim();
  return title && !/^new thread$/i.test(title) ? title : undefined;
}

export const zedSource: SourceAdapter = {
  id: 'zed',
  label: 'Zed',
  defaultRoots: DEFAULT_ROOTS.zed,
  accepts: (file) => basename(file) === 'threads.db',
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    const sessions: ParsedSession[] = await withDatabase(file, (db) => {
      if (!tableNames(db).has('threads')) return [];
      const out: ParsedSession[] = [];
      for (const row of rows(db, 'SELECT * FROM threads ORDER BY updated_at, id')) {
        const id = String(row.id);
        let doc: Json | undefined;
        try {
          doc = threadDoc(row.data_type, row.data);
        } catch (err) {
          ctx.logger.warn(`${file}: thread ${id} skipped, ${err instanceof Error ? err.message : String(err)}`);
          continue;
        }
        const turns = doc ? zedTurns(doc) : [];
        if (!hasConversation(turns)) continue;
        const folders = (asText(row.folder_paths) ?? '').split(/[\n\0]/)[0]?.trim();
        const parent = asText(row.parent_id);
        out.push(
          buildSession(
            {
              source: 'zed',
              nativeId: id,
              filename: id,
              topic: threadTitle(asText(row.summary)),
              file,
              size: info.size,
              created: isoTime(asText(row.created_at)),
              updated: isoTime(asText(row.updated_at)),
              project: folders || undefined,
              parentId: parent ? `zed:${parent}` : undefined,
              turns,
            },
            info.mtime,
          ),
        );
      }
      return out;
    });
    if (!sessions.length) ctx.logger.info(`${file}: no conversation turns, not indexed`);
    return sessions;
  },
};
