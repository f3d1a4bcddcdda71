/**
 * OpenHands (its CLI and local GUI) keeps each conversation in a folder `~/.openhands/conversations/<id>/`
 * (`OH_PERSISTENCE_DIR` moves `~/.openhands`): `base_state.json` (the conversation's state, rewritten as it runs:
 * `id`, `workspace.working_dir`, the agent's model) and `events/*.json`, one event per file, named in order. Events:
 * `MessageEvent {source, llm_message{role, content[{type: text, text}], reasoning_content}}`, `ActionEvent
 * {tool_name, tool_call_id, action{command, path, …}, thought[]}` and `ObservationEvent {tool_name, tool_call_id,
 * observation{content[] | text}}`; others (state updates, errors) are skipped. The session is read through its
 * `base_state.json`, so it is read again whenever OpenHands saves its state.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TurnKind } from '../../model.js';
import { buildSession, hasConversation, type RawTurn } from './build.js';
import { isRecord, isoTime, readJsonDocument, str } from './line-files.js';
import type { SourceAdapter, SourceContext } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

type Json = Record<string, unknown>;

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) => (typeof c === 'string' ? c : isRecord(c) ? (str(c.text) ?? '') : ''))
    .filter(Boolean)
    .join('\n');
}

/** The file editor reads (`view`) or edits; the terminal and the rest are tools. */
function kindOf(tool: string, action: Json): TurnKind {
  if (tool !== 'file_editor' && tool !== 'str_replace_editor') return 'tool';
  return action.command === 'view' ? 'file' : 'diff';
}

function eventTurns(event: Json, kinds: Map<string, TurnKind>): RawTurn[] {
  const timestamp = isoTime(event.timestamp);
  if (event.kind === 'MessageEvent' && isRecord(event.llm_message)) {
    const m = event.llm_message;
    const role = m.role === 'user' ? 'user' : m.role === 'assistant' ? 'assistant' : undefined;
    if (!role) return [];
    const turns: RawTurn[] = [];
    const reasoning = str(m.reasoning_content) ?? str(event.reasoning_content);
    if (reasoning?.trim()) turns.push({ role: 'assistant', kind: 'thinking', text: reasoning, timestamp });
    const body = text(m.content);
    if (body.trim()) turns.push({ role, kind: 'conversation', text: body, timestamp });
    return turns;
  }
  if (event.kind === 'ActionEvent') {
    const tool = str(event.tool_name) ?? (isRecord(event.tool_call) ? str(event.tool_call.name) : undefined) ?? 'tool';
    const action = isRecord(event.action) ? event.action : {};
    const kind = kindOf(tool, action);
    if (str(event.tool_call_id)) kinds.set(str(event.tool_call_id)!, kind);
    const turns: RawTurn[] = [];
    const thought = text(event.thought);
    if (thought.trim()) turns.push({ role: 'assistant', kind: 'conversation', text: thought, timestamp });
    turns.push({ role: 'assistant', kind, tool, text: `${tool} ${JSON.stringify(action)}`, timestamp });
    return turns;
  }
  if (event.kind === 'ObservationEvent') {
    const tool = str(event.tool_name) ?? 'tool';
    const observation = isRecord(event.observation) ? event.observation : {};
    const body = text(observation.content) || str(observation.text) || str(observation.detail) || '';
    const kind = kinds.get(str(event.tool_call_id) ?? '') ?? 'tool';
    return body.trim() ? [{ role: 'tool', kind, tool, text: body, timestamp }] : [];
  }
  return [];
}

async function readEvents(dir: string, ctx: SourceContext): Promise<Json[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
  const events: Json[] = [];
  for (const name of names) {
    try {
      const value: unknown = JSON.parse(await readFile(join(dir, name), 'utf8'));
      if (isRecord(value)) events.push(value);
    } catch (err) {
      ctx.logger.warn(`${join(dir, name)}: skipped, ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return events;
}

const WORKING_DIR_KEYS = ['working_dir', 'cwd', 'path', 'root', 'mount_path'];

export const openHandsSource: SourceAdapter = {
  id: 'openhands',
  label: 'OpenHands',
  defaultRoots: DEFAULT_ROOTS.openhands,
  accepts: (file) => basename(file) === 'base_state.json',
  async readFile(file, _root, ctx) {
    const read = await readJsonDocument(file, ctx.logger);
    if (!read) return [];
    const state: Json = isRecord(read.doc) ? read.doc : {};
    const dir = dirname(file);
    const kinds = new Map<string, TurnKind>();
    const events = await readEvents(join(dir, 'events'), ctx);
    const turns = events.flatMap((e) => eventTurns(e, kinds));
    if (!hasConversation(turns)) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    const workspace = isRecord(state.workspace) ? state.workspace : {};
    // where the state names no workspace, an observation's metadata says where the agent worked
    const observed = events.map((e) => (isRecord(e.observation) && isRecord(e.observation.metadata) ? str(e.observation.metadata.working_dir) : undefined));
    const project = [...WORKING_DIR_KEYS.map((k) => str(workspace[k])), ...observed].find((v) => v?.trim());
    const id = str(state.id) ?? basename(dir);
    const { size, mtime } = read.info;
    return [buildSession({ source: 'openhands', nativeId: id, filename: id, topic: str(state.title), file, size, project, turns }, mtime)];
  },
};
