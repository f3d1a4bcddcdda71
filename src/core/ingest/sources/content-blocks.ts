/**
 * Messages as Anthropic's API shapes them, which several agents store as they are (Amp, Factory Droid): a string, or
 * an array of blocks `text`, `thinking`, `tool_use {id, name, input}` and `tool_result {tool_use_id, content}`.
 * Amp's own result shape (`toolUseID` with `run.result` / `run.error`) is read here too.
 */
import type { TurnKind } from '../../model.js';
import type { RawTurn } from './build.js';
import { isRecord, str } from './line-files.js';

/** A tool's result: the text a reader wants (`output`, `content`, `diff`), else its JSON. */
export function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (Array.isArray(result)) return result.map((r) => (isRecord(r) ? (str(r.text) ?? '') : resultText(r))).join('\n');
  if (isRecord(result)) {
    for (const key of ['output', 'content', 'diff']) if (result[key] !== undefined) return resultText(result[key]);
    return JSON.stringify(result);
  }
  return result === undefined || result === null ? '' : String(result);
}

/**
 * The turns of one message's content. `names` remembers tool names by call id, so that a result (which names only
 * the call) is shown under its tool; `toolKind` tells file reads and edits from other tools.
 */
export function blockTurns(
  role: 'user' | 'assistant',
  content: unknown,
  names: Map<string, string>,
  toolKind: (name: string) => TurnKind,
  timestamp?: string,
  line?: number,
): RawTurn[] {
  if (typeof content === 'string') return [{ role, kind: 'conversation', text: content, timestamp, line }];
  const turns: RawTurn[] = [];
  for (const block of Array.isArray(content) ? content.filter(isRecord) : []) {
    if (block.type === 'text') turns.push({ role, kind: 'conversation', text: str(block.text) ?? '', timestamp, line });
    else if (block.type === 'thinking') turns.push({ role: 'assistant', kind: 'thinking', text: str(block.thinking) ?? '', timestamp, line });
    else if (block.type === 'tool_use') {
      const name = str(block.name) ?? 'tool';
      if (str(block.id)) names.set(str(block.id)!, name);
      turns.push({ role: 'assistant', kind: toolKind(name), tool: name, text: `${name} ${JSON.stringify(block.input ?? {})}`, timestamp, line });
    } else if (block.type === 'tool_result') {
      const id = str(block.toolUseID) ?? str(block.tool_use_id) ?? '';
      const name = names.get(id) ?? 'tool';
      const run = isRecord(block.run) ? block.run : undefined;
      const error = run && isRecord(run.error) ? str(run.error.message) : undefined;
      const text = run
        ? run.result !== undefined
          ? resultText(run.result)
          : (error ?? (run.status === 'cancelled' ? '[cancelled]' : ''))
        : resultText(block.content);
      turns.push({ role: 'tool', kind: toolKind(name), tool: name, text, timestamp, line });
    }
  }
  return turns;
}

/** A tool-kind function from the names of tools that read files and tools that edit them. */
export function toolKinds(fileTools: readonly string[], diffTools: readonly string[]): (name: string) => TurnKind {
  const files = new Set(fileTools);
  const diffs = new Set(diffTools);
  return (name) => (files.has(name) ? 'file' : diffs.has(name) ? 'diff' : 'tool');
}
