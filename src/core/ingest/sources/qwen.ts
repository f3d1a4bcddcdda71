/**
 * Qwen Code (a Gemini CLI fork): `~/.qwen/projects/<project>/chats/<sessionId>.jsonl`, an append-only log of records
 * `{sessionId, cwd, timestamp, type: user | assistant | …, message: {role: user | model, parts[]}}` with Gemini-style
 * parts: `{text, thought?}`, `{functionCall: {id, name, args}}`, `{functionResponse: {id, name, response: {output}}}`.
 * Tool results arrive as `user` records holding only `functionResponse` parts.
 */
import { stat } from 'node:fs/promises';
import { basename, relative, sep } from 'node:path';
import type { TurnKind } from '../../model.js';
import { buildSession, hasConversation, type RawTurn } from './build.js';
import { isRecord, isoTime, readJsonRecords, str } from './line-files.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const FILE_TOOLS = new Set(['read_file', 'read_many_files', 'list_directory', 'glob', 'search_file_content']);
const DIFF_TOOLS = new Set(['write_file', 'replace', 'edit']);
const toolKind = (name: string): TurnKind => (FILE_TOOLS.has(name) ? 'file' : DIFF_TOOLS.has(name) ? 'diff' : 'tool');

function responseText(response: unknown): string {
  if (isRecord(response) && response.output !== undefined) return typeof response.output === 'string' ? response.output : JSON.stringify(response.output);
  if (isRecord(response) && typeof response.error === 'string') return response.error;
  return response === undefined ? '' : JSON.stringify(response);
}

function partsTurns(role: 'user' | 'assistant', parts: unknown[], timestamp: string | undefined, line: number): RawTurn[] {
  const turns: RawTurn[] = [];
  for (const part of parts.filter(isRecord)) {
    const text = str(part.text);
    if (text !== undefined) turns.push({ role, kind: part.thought ? 'thinking' : 'conversation', text, timestamp, line });
    if (isRecord(part.functionCall)) {
      const name = str(part.functionCall.name) ?? 'tool';
      turns.push({ role: 'assistant', kind: toolKind(name), tool: name, text: `${name} ${JSON.stringify(part.functionCall.args ?? {})}`, timestamp, line });
    }
    if (isRecord(part.functionResponse)) {
      const name = str(part.functionResponse.name) ?? 'tool';
      turns.push({ role: 'tool', kind: toolKind(name), tool: name, text: responseText(part.functionResponse.response), timestamp, line });
    }
  }
  return turns;
}

export const qwenSource: SourceAdapter = {
  id: 'qwen',
  label: 'Qwen Code',
  defaultRoots: DEFAULT_ROOTS.qwen,
  accepts: (file, root) => file.endsWith('.jsonl') && relative(root, file).split(sep).includes('chats'),
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    const turns: RawTurn[] = [];
    let sessionId: string | undefined;
    let project: string | undefined;
    await readJsonRecords(
      file,
      ctx.logger,
      (record, line) => {
        sessionId ??= str(record.sessionId);
        project ??= str(record.cwd);
        const timestamp = isoTime(record.timestamp);
        const message = isRecord(record.message) ? record.message : undefined;
        const parts = message && Array.isArray(message.parts) ? message.parts : [];
        if (record.type === 'user' && message?.role === 'user') turns.push(...partsTurns('user', parts, timestamp, line));
        else if (record.type === 'assistant' && message?.role === 'model') turns.push(...partsTurns('assistant', parts, timestamp, line));
      },
      true,
      ctx.live,
    );
    if (!hasConversation(turns)) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    const id = sessionId ?? basename(file, '.jsonl');
    return [buildSession({ source: 'qwen', nativeId: id, filename: id, file, size: info.size, project, turns }, info.mtime)];
  },
};
