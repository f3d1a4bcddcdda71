/**
 * Continue (continue.dev): `~/.continue/sessions/<sessionId>.json` (`$CONTINUE_GLOBAL_DIR` moves `~/.continue`), one
 * document per chat, rewritten whole: `{sessionId, title, workspaceDirectory, history[{message{role, content,
 * toolCalls?}, contextItems[]}]}`; `sessions.json` beside it lists `{sessionId, title, dateCreated (epoch ms)}`.
 * Roles: user, assistant, thinking, tool (a tool's output). Content is a string or `[{type: "text", text}]`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { buildSession, hasConversation, type RawTurn } from './build.js';
import { isRecord, isoTime, readJsonDocument, str } from './line-files.js';
import { pathFromFileUri } from './locations.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .map((p) => str(p.text) ?? (p.type === 'imageUrl' ? '[image]' : ''))
    .filter(Boolean)
    .join('\n');
}

/** When each session was created, from the `sessions.json` index beside the session files. */
function createdDates(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const index = join(dir, 'sessions.json');
  try {
    if (!existsSync(index)) return out;
    const parsed: unknown = JSON.parse(readFileSync(index, 'utf8'));
    for (const entry of Array.isArray(parsed) ? parsed.filter(isRecord) : []) {
      const id = str(entry.sessionId);
      const ms = Number(entry.dateCreated);
      const at = Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : isoTime(entry.dateCreated);
      if (id && at) out.set(id, at);
    }
  } catch {
    // an unreadable index only costs the creation dates
  }
  return out;
}

export const continueSource: SourceAdapter = {
  id: 'continue',
  label: 'Continue',
  defaultRoots: DEFAULT_ROOTS.continue,
  accepts: (file) => file.endsWith('.json') && basename(file) !== 'sessions.json',
  async readFile(file, _root, ctx) {
    const read = await readJsonDocument(file, ctx.logger);
    if (!read) return [];
    const { doc, info } = read;
    if (!isRecord(doc) || !Array.isArray(doc.history)) throw new Error('not a Continue session (expected an object with history)');
    const turns: RawTurn[] = [];
    const names = new Map<string, string>();
    for (const item of doc.history.filter(isRecord)) {
      const message = isRecord(item.message) ? item.message : {};
      const text = contentText(message.content);
      if (message.role === 'user') {
        turns.push({ role: 'user', kind: 'conversation', text });
        for (const context of Array.isArray(item.contextItems) ? item.contextItems.filter(isRecord) : []) {
          const body = str(context.content);
          if (body) turns.push({ role: 'tool', kind: 'file', tool: str(context.name) ?? 'context', text: body });
        }
      } else if (message.role === 'assistant') {
        turns.push({ role: 'assistant', kind: 'conversation', text });
        for (const call of Array.isArray(message.toolCalls) ? message.toolCalls.filter(isRecord) : []) {
          const fn = isRecord(call.function) ? call.function : {};
          const name = str(fn.name) ?? 'tool';
          if (str(call.id)) names.set(str(call.id)!, name);
          turns.push({ role: 'assistant', kind: 'tool', tool: name, text: `${name} ${str(fn.arguments) ?? ''}` });
        }
      } else if (message.role === 'thinking') turns.push({ role: 'assistant', kind: 'thinking', text });
      else if (message.role === 'tool') {
        const name = names.get(str(message.toolCallId) ?? '') ?? 'tool';
        turns.push({ role: 'tool', kind: 'tool', tool: name, text });
      }
    }
    if (!hasConversation(turns)) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    const id = str(doc.sessionId) ?? basename(file, '.json');
    const workspace = str(doc.workspaceDirectory);
    const title = str(doc.title);
    return [
      buildSession(
        {
          source: 'continue',
          nativeId: id,
          topic: title && title !== 'New Session' ? title : undefined,
          filename: id,
          file,
          size: info.size,
          created: createdDates(dirname(file)).get(id),
          project: workspace ? (pathFromFileUri(workspace) ?? workspace) : undefined,
          turns,
        },
        info.mtime,
      ),
    ];
  },
};
