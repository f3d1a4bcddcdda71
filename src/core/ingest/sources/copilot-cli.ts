/**
 * GitHub Copilot CLI: `~/.copilot/session-state/<id>.jsonl` or `<id>/events.jsonl` (`$COPILOT_HOME` moves `~/.copilot`),
 * an append-only event log: `{type, timestamp, data}` with `session.start` (`sessionId`, `context.cwd`,
 * `context.branch`), `user.message`, `assistant.message` (`content`, `reasoningText`, `toolRequests[]`),
 * `assistant.reasoning` and `tool.execution_complete` (`toolCallId`, `result`). Other event types are skipped.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { TurnKind } from '../../model.js';
import { buildSession, hasConversation, type RawTurn } from './build.js';
import { isRecord, isoTime, readJsonRecords, str } from './line-files.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';
import { splitInjected } from './harness.js';

const FILE_TOOLS = new Set(['view', 'read', 'read_file', 'glob', 'grep']);
const DIFF_TOOLS = new Set(['edit', 'create', 'write', 'str_replace', 'apply_patch']);

const toolKind = (name: string): TurnKind => (FILE_TOOLS.has(name) ? 'file' : DIFF_TOOLS.has(name) ? 'diff' : 'tool');

/** A tool result as text: a string, or the text fields of an object (`content`, `detailedContent`), else its JSON. */
function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (isRecord(result)) {
    const text = str(result.detailedContent) ?? str(result.content) ?? str(result.output);
    if (text !== undefined) return text;
  }
  return result === undefined || result === null ? '' : JSON.stringify(result);
}

/** The name a session folder's `workspace.yaml` gives it (`name`, else `summary`): top-level scalars are all we read. */
async function workspaceName(file: string): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const fields = new Map<string, string>();
  for (const m of text.matchAll(/^([A-Za-z_]+):[ \t]*(.*?)[ \t]*$/gm)) {
    const raw = m[2];
    const quoted = /^(["'])(.*)\1$/.exec(raw);
    fields.set(m[1], quoted ? quoted[2] : raw);
  }
  const name = fields.get('name') || fields.get('summary');
  return name && !/^[|>]/.test(name) ? name : undefined;
}

export const copilotCliSource: SourceAdapter = {
  id: 'copilot-cli',
  label: 'GitHub Copilot CLI',
  defaultRoots: DEFAULT_ROOTS['copilot-cli'],
  accepts(file, root) {
    const parts = relative(root, file).split(sep);
    return (parts.length === 1 && file.endsWith('.jsonl')) || (parts.length === 2 && parts[1] === 'events.jsonl');
  },
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    const turns: RawTurn[] = [];
    const toolNames = new Map<string, string>();
    let sessionId = basename(file) === 'events.jsonl' ? basename(dirname(file)) : basename(file, '.jsonl');
    let project: string | undefined;
    let branch: string | undefined;
    let created: string | undefined; // session.start can precede the first turn
    await readJsonRecords(
      file,
      ctx.logger,
      (record, line) => {
        const data = isRecord(record.data) ? record.data : {};
        const timestamp = isoTime(record.timestamp);
        created ??= timestamp;
        switch (record.type) {
          case 'session.start': {
            sessionId = str(data.sessionId) ?? sessionId;
            const context = isRecord(data.context) ? data.context : {};
            project = str(context.cwd) ?? project;
            branch = str(context.branch) ?? branch;
            break;
          }
          case 'user.message': {
            // a message the CLI made itself (a skill's context, `source: skill-…`) is a note, not something asked
            const text = str(data.content) ?? '';
            const { prompt, injected } = str(data.source)?.startsWith('skill') ? { prompt: '', injected: [text] } : splitInjected(text);
            for (const note of injected) turns.push({ role: 'system', kind: 'note', text: note, timestamp, line });
            if (prompt) turns.push({ role: 'user', kind: 'conversation', text: prompt, timestamp, line });
            break;
          }
          case 'assistant.reasoning':
            turns.push({ role: 'assistant', kind: 'thinking', text: str(data.content) ?? '', timestamp, line });
            break;
          case 'assistant.message': {
            const reasoning = str(data.reasoningText);
            if (reasoning) turns.push({ role: 'assistant', kind: 'thinking', text: reasoning, timestamp, line });
            turns.push({ role: 'assistant', kind: 'conversation', text: str(data.content) ?? '', timestamp, line });
            for (const request of Array.isArray(data.toolRequests) ? data.toolRequests.filter(isRecord) : []) {
              const name = str(request.name) ?? 'tool';
              const id = str(request.toolCallId);
              if (id) toolNames.set(id, name);
              const args = typeof request.arguments === 'string' ? request.arguments : JSON.stringify(request.arguments ?? {});
              turns.push({ role: 'assistant', kind: toolKind(name), tool: name, text: `${name} ${args}`, timestamp, line });
            }
            break;
          }
          case 'tool.execution_complete': {
            const name = toolNames.get(str(data.toolCallId) ?? '') ?? str(data.toolName) ?? 'tool';
            turns.push({ role: 'tool', kind: toolKind(name), tool: name, text: resultText(data.result), timestamp, line });
            break;
          }
          default:
          // session.info, session.model_change, assistant.turn_start/end, hooks: nothing a reader searches
        }
      },
      true,
      ctx.live,
    );
    if (!hasConversation(turns)) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    const topic = basename(file) === 'events.jsonl' ? await workspaceName(join(dirname(file), 'workspace.yaml')) : undefined;
    return [
      buildSession(
        { source: 'copilot-cli', nativeId: sessionId, topic, filename: sessionId, file, size: info.size, created, project, branch, turns },
        info.mtime,
      ),
    ];
  },
};
