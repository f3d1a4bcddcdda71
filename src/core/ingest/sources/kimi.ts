/**
 * Kimi CLI: one append-only `wire.jsonl` per session. The first releases keep `~/.kimi/sessions/<project hash>/
 * <session>/wire.jsonl` (`KIMI_SHARE_DIR` moves `~/.kimi`), records `{timestamp (epoch seconds), message{type,
 * payload}}` of types `TurnBegin {user_input[]}`, `ContentPart {type: text | think}`, `ToolCall {id, function{name,
 * arguments}}`, `ToolResult {tool_call_id, return_value{output, is_error}}`, `StepBegin`, `StatusUpdate`, `TurnEnd`.
 * Kimi Code keeps `~/.kimi-code/sessions/wd_<folder>_<hash>/session_<id>/agents/<agent>/wire.jsonl` with top-level
 * records `turn.prompt {input[]}` and `context.append_loop_event {event}` whose events are `content.part`,
 * `tool.call {toolCallId, name, args}`, `tool.result {toolCallId, result{output, isError, message}}`, `step.*`.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { TurnKind } from '../../model.js';
import { buildSession, hasConversation, latestTime, type RawTurn } from './build.js';
import { toolKinds } from './content-blocks.js';
import { isRecord, isoTime, readJsonRecords, str } from './line-files.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const toolKind = toolKinds(['ReadFile', 'Read', 'Glob', 'Grep', 'read_file'], ['WriteFile', 'StrReplaceFile', 'Edit', 'Write', 'write_file']);

const texts = (parts: unknown): string =>
  (Array.isArray(parts) ? parts.filter(isRecord) : [])
    .filter((p) => p.type === 'text')
    .map((p) => str(p.text) ?? '')
    .join('\n');

/** A tool's output: a string, or the text of an array of parts. */
function output(value: unknown, isError: boolean, message?: string): string {
  const text =
    typeof value === 'string' ? value : Array.isArray(value) ? texts(value) || value.map((v) => (isRecord(v) ? (str(v.text) ?? '') : '')).join('\n') : '';
  return text || message || (isError ? '[error]' : '');
}

const args = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? {}));

/** Where a session's file lies: its id and, in Kimi Code's layout, the project folder's name. */
function place(file: string): { id: string; project?: string } {
  const dir = dirname(file);
  if (basename(dirname(dir)) === 'agents') {
    const session = dirname(dirname(dir));
    const workdir = basename(dirname(session));
    const project = /^wd_(.+)_[0-9a-f]{12}$/i.exec(workdir)?.[1];
    return { id: `${basename(session).replace(/^session_/, '')}:${basename(dir)}`, project };
  }
  return { id: basename(dir) };
}

export const kimiSource: SourceAdapter = {
  id: 'kimi',
  label: 'Kimi CLI',
  defaultRoots: DEFAULT_ROOTS.kimi,
  accepts: (file) => basename(file) === 'wire.jsonl',
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    const turns: RawTurn[] = [];
    const names = new Map<string, string>();
    let latest: string | undefined;
    const push = (role: RawTurn['role'], kind: TurnKind, text: string, timestamp: string | undefined, line: number, tool?: string): void => {
      if (!text.trim()) return;
      // a reply arrives as several parts: consecutive ones of one kind are one turn
      const last = turns.at(-1);
      if (role === 'assistant' && !tool && last && last.role === 'assistant' && last.kind === kind && !last.tool) last.text += `\n${text}`;
      else turns.push({ role, kind, text, timestamp, line, tool });
    };
    const call = (id: string | undefined, name: string, input: unknown, timestamp: string | undefined, line: number): void => {
      if (id) names.set(id, name);
      push('assistant', toolKind(name), `${name} ${args(input)}`, timestamp, line, name);
    };
    const result = (id: string | undefined, text: string, timestamp: string | undefined, line: number): void => {
      const name = names.get(id ?? '') ?? 'tool';
      push('tool', toolKind(name), text, timestamp, line, name);
    };
    await readJsonRecords(
      file,
      ctx.logger,
      (record, line) => {
        const timestamp = isoTime(record.timestamp) ?? isoTime(record.time) ?? isoTime(record.created_at);
        latest = latestTime(latest, timestamp); // a turn's end (TurnEnd) is its last activity, though it makes no turn
        const message = isRecord(record.message) ? record.message : undefined;
        if (message) {
          const p = isRecord(message.payload) ? message.payload : {};
          if (message.type === 'TurnBegin') push('user', 'conversation', texts(p.user_input), timestamp, line);
          else if (message.type === 'ContentPart' && p.type === 'text') push('assistant', 'conversation', str(p.text) ?? '', timestamp, line);
          else if (message.type === 'ContentPart' && p.type === 'think') push('assistant', 'thinking', str(p.think) ?? '', timestamp, line);
          else if (message.type === 'ToolCall') {
            const fn = isRecord(p.function) ? p.function : {};
            call(str(p.id), str(fn.name) ?? 'tool', fn.arguments, timestamp, line);
          } else if (message.type === 'ToolResult') {
            const value = isRecord(p.return_value) ? p.return_value : {};
            result(str(p.tool_call_id), output(value.output, value.is_error === true, str(value.message)), timestamp, line);
          }
          return;
        }
        if (record.type === 'turn.prompt' || record.type === 'turn.steer') push('user', 'conversation', texts(record.input), timestamp, line);
        else if (record.type === 'context.append_loop_event' && isRecord(record.event)) {
          const event = record.event;
          const part = isRecord(event.part) ? event.part : {};
          if (event.type === 'content.part' && part.type === 'text') push('assistant', 'conversation', str(part.text) ?? '', timestamp, line);
          else if (event.type === 'content.part' && part.type === 'think')
            push('assistant', 'thinking', str(part.think) ?? str(part.text) ?? '', timestamp, line);
          else if (event.type === 'tool.call') call(str(event.toolCallId), str(event.name) ?? 'tool', event.args, timestamp, line);
          else if (event.type === 'tool.result') {
            const r = isRecord(event.result) ? event.result : {};
            result(str(event.toolCallId), output(r.output, r.isError === true, str(r.message)), timestamp, line);
          }
        }
      },
      true,
      ctx.live,
    );
    if (!hasConversation(turns)) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    const { id, project } = place(file);
    return [buildSession({ source: 'kimi', nativeId: id, filename: id, file, size: info.size, project, updated: latest, turns }, info.mtime)];
  },
};
