/**
 * Cline and Roo Code keep one folder per task: `<globalStorage>/<extension id>/tasks/<task id>/` with
 * `ui_messages.json` (what the user saw, with timestamps), `api_conversation_history.json` (what the model saw) and
 * `task_metadata.json`; `state/taskHistory.json` lists tasks with their first prompt and workspace. Shared by
 * cline.ts and roo.ts, which differ only in where they live.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TurnKind } from '../../model.js';
import { buildSession, type RawTurn } from './build.js';
import { isRecord, isoTime, str } from './line-files.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const MAX_BYTES = 256 * 1024 * 1024;
const FILE_TOOLS = new Set(['readFile', 'listFilesTopLevel', 'listFilesRecursive', 'searchFiles', 'listCodeDefinitionNames']);
const DIFF_TOOLS = new Set(['editedExistingFile', 'newFileCreated', 'appliedDiff', 'insertContent', 'searchAndReplace']);

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** ui_messages.json → turns. Streaming fragments (`partial`) and bookkeeping messages are left out. */
export function uiMessageTurns(messages: unknown[]): RawTurn[] {
  const turns: RawTurn[] = [];
  for (const m of messages) {
    if (!isRecord(m) || m.partial === true) continue;
    const timestamp = isoTime(m.ts);
    const text = str(m.text) ?? '';
    const kind = m.type === 'say' ? str(m.say) : str(m.ask);
    if (kind === 'task' || kind === 'user_feedback') turns.push({ role: 'user', kind: 'conversation', text, timestamp });
    else if (kind === 'text' || kind === 'completion_result' || kind === 'followup' || kind === 'plan_mode_respond') {
      const question = kind === 'followup' ? parseJson(text) : undefined;
      turns.push({ role: 'assistant', kind: 'conversation', text: isRecord(question) ? (str(question.question) ?? text) : text, timestamp });
    } else if (kind === 'reasoning') turns.push({ role: 'assistant', kind: 'thinking', text: text || (str(m.reasoning) ?? ''), timestamp });
    else if (kind === 'tool' && m.type === 'say') {
      const tool = parseJson(text);
      const name = isRecord(tool) ? (str(tool.tool) ?? 'tool') : 'tool';
      const turnKind: TurnKind = FILE_TOOLS.has(name) ? 'file' : DIFF_TOOLS.has(name) ? 'diff' : 'tool';
      const body = isRecord(tool) ? [str(tool.path), str(tool.diff) ?? str(tool.content)].filter(Boolean).join('\n') : text;
      turns.push({ role: 'assistant', kind: turnKind, tool: name, text: `${name} ${body}`, timestamp });
    } else if (kind === 'command') turns.push({ role: 'assistant', kind: 'tool', tool: 'command', text: `$ ${text}`, timestamp });
    else if (kind === 'command_output' || kind === 'mcp_server_response') turns.push({ role: 'tool', kind: 'tool', text, timestamp });
    else if (kind === 'error') turns.push({ role: 'system', kind: 'note', text, timestamp });
  }
  return turns;
}

/** api_conversation_history.json (Anthropic messages, or Roo's `{version: 2, messages}`) → turns, when no UI log exists. */
export function apiHistoryTurns(history: unknown): RawTurn[] {
  const messages = Array.isArray(history) ? history : isRecord(history) && Array.isArray(history.messages) ? history.messages : [];
  const turns: RawTurn[] = [];
  for (const m of messages) {
    if (!isRecord(m)) continue;
    const role = m.role === 'assistant' ? 'assistant' : m.role === 'tool' ? 'tool' : 'user';
    const timestamp = isoTime(m.ts);
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    for (const b of blocks) {
      if (!isRecord(b)) continue;
      if (b.type === 'text' && typeof b.text === 'string') {
        const text = b.text.replace(/<environment_details>[\s\S]*?<\/environment_details>/g, '').trim();
        turns.push({ role, kind: 'conversation', text, timestamp });
      } else if (b.type === 'tool_use' || b.type === 'tool-call') {
        const name = str(b.name) ?? str(b.toolName) ?? 'tool';
        turns.push({ role: 'assistant', kind: 'tool', tool: name, text: `${name} ${JSON.stringify(b.input ?? {})}`, timestamp });
      } else if (b.type === 'tool_result' || b.type === 'tool-result') {
        const content = b.content ?? b.output;
        turns.push({ role: 'tool', kind: 'tool', text: typeof content === 'string' ? content : JSON.stringify(content ?? ''), timestamp });
      } else if ((b.type === 'thinking' || b.type === 'reasoning') && (typeof b.thinking === 'string' || typeof b.text === 'string')) {
        turns.push({ role: 'assistant', kind: 'thinking', text: str(b.thinking) ?? str(b.text) ?? '', timestamp });
      }
    }
  }
  return turns;
}

/** Task list entry for a task id: its title (first prompt) and workspace folder, when the index has it. */
function historyEntry(taskDir: string): { task?: string; cwd?: string } {
  const file = join(dirname(dirname(taskDir)), 'state', 'taskHistory.json');
  if (!existsSync(file)) return {};
  try {
    const list: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const entry = Array.isArray(list) ? list.find((e) => isRecord(e) && String(e.id) === basename(taskDir)) : undefined;
    return isRecord(entry) ? { task: str(entry.task), cwd: str(entry.cwdOnTaskInitialization) ?? str(entry.workspace) } : {};
  } catch {
    return {};
  }
}

export function taskFolderSource(id: 'cline' | 'roo', label: string): SourceAdapter {
  return {
    id,
    label,
    defaultRoots: DEFAULT_ROOTS[id],
    accepts(file) {
      const name = basename(file);
      if (name === 'ui_messages.json' || name === 'claude_messages.json') return true;
      return name === 'api_conversation_history.json' && !existsSync(join(dirname(file), 'ui_messages.json'));
    },
    async readFile(file, _root, ctx) {
      const info = await stat(file);
      if (info.size > MAX_BYTES) {
        ctx.logger.warn(`${file}: skipped, ${info.size} bytes is over the ${MAX_BYTES}-byte limit`);
        return [];
      }
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      const turns = basename(file) === 'api_conversation_history.json' ? apiHistoryTurns(parsed) : Array.isArray(parsed) ? uiMessageTurns(parsed) : [];
      if (!turns.length) {
        ctx.logger.info(`${file}: no conversation turns, not indexed`);
        return [];
      }
      const taskDir = dirname(file);
      const entry = historyEntry(taskDir);
      const taskId = basename(taskDir);
      const created = /^\d{12,14}$/.test(taskId) ? new Date(Number(taskId)).toISOString() : undefined;
      return [
        buildSession(
          { source: id, nativeId: taskId, topic: entry.task, filename: taskId, file, size: info.size, created, project: entry.cwd, turns },
          info.mtime,
        ),
      ];
    },
  };
}
