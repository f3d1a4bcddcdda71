/**
 * Kiro's CLI: `~/.kiro/sessions/cli/<id>.jsonl` (append-only) beside `<id>.json` (`session_id`, `cwd`, `title`,
 * `created_at`, `updated_at`). Lines come in two shapes: `{kind: Prompt | AssistantMessage | ToolResults,
 * data{content[{kind: text | toolUse | toolResult, data}]}}` and the newer `{timestamp, payload{type: user |
 * assistant | tool_call | tool_result, content, toolName, toolCallId, args}}`. Kiro's IDE keeps its chats in its own
 * editor storage, which is not read.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { buildSession, hasConversation, type RawTurn } from './build.js';
import { toolKinds } from './content-blocks.js';
import { isRecord, isoTime, readJsonRecords, str } from './line-files.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const toolKind = toolKinds(['read', 'fs_read', 'glob', 'grep'], ['write', 'fs_write', 'strReplace']);

const content = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

async function sidecar(file: string): Promise<Record<string, unknown>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file.replace(/\.jsonl$/, '.json'), 'utf8'));
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export const kiroSource: SourceAdapter = {
  id: 'kiro',
  label: 'Kiro CLI',
  defaultRoots: DEFAULT_ROOTS.kiro,
  accepts: (file) => file.endsWith('.jsonl'),
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    const turns: RawTurn[] = [];
    const names = new Map<string, string>();
    const call = (id: string | undefined, name: string, input: unknown, timestamp?: string, line?: number): void => {
      if (id) names.set(id, name);
      turns.push({ role: 'assistant', kind: toolKind(name), tool: name, text: `${name} ${content(input ?? {})}`, timestamp, line });
    };
    const result = (id: string | undefined, text: string, timestamp?: string, line?: number): void => {
      const name = names.get(id ?? '') ?? 'tool';
      turns.push({ role: 'tool', kind: toolKind(name), tool: name, text, timestamp, line });
    };
    await readJsonRecords(
      file,
      ctx.logger,
      (record, line) => {
        const timestamp = isoTime(record.timestamp);
        if (isRecord(record.payload)) {
          const p = record.payload;
          if ((p.type === 'user' || p.type === 'assistant') && str(p.content)?.trim())
            turns.push({ role: p.type, kind: 'conversation', text: str(p.content)!, timestamp, line });
          else if (p.type === 'tool_call') call(str(p.toolCallId), str(p.toolName) ?? 'tool', p.args, timestamp, line);
          else if (p.type === 'tool_result') result(str(p.toolCallId), content(p.content), timestamp, line);
          return;
        }
        const blocks = isRecord(record.data) && Array.isArray(record.data.content) ? record.data.content.filter(isRecord) : [];
        for (const block of blocks) {
          const data = block.data;
          if (block.kind === 'text' && str(data)?.trim())
            turns.push({ role: record.kind === 'Prompt' ? 'user' : 'assistant', kind: 'conversation', text: str(data)!, timestamp, line });
          else if (block.kind === 'toolUse' && isRecord(data)) call(str(data.toolUseId), str(data.name) ?? 'tool', data.input, timestamp, line);
          else if (block.kind === 'toolResult' && isRecord(data)) result(str(data.toolUseId), content(data.content), timestamp, line);
        }
      },
      true,
      ctx.live,
    );
    if (!hasConversation(turns)) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    const meta = await sidecar(file);
    const id = str(meta.session_id) ?? basename(file, '.jsonl');
    return [
      buildSession(
        {
          source: 'kiro',
          nativeId: id,
          filename: id,
          topic: str(meta.title)?.trim() || undefined,
          file,
          size: info.size,
          created: isoTime(meta.created_at),
          updated: isoTime(meta.updated_at),
          project: str(meta.cwd),
          turns,
        },
        info.mtime,
      ),
    ];
  },
};
