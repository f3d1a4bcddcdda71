/**
 * Claude Code: `~/.claude/projects/<encoded cwd>/<session id>.jsonl` (CLAUDE_CONFIG_DIR moves it), sub-agents in
 * `agent-<id>.jsonl` beside it (2.0.x) or in `<session id>/subagents/` (2.1.x). One API message is written as several
 * lines sharing `message.id`; they are merged back here. Titles can live in another file (`summary.leafUuid`).
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, relative, sep } from 'node:path';
import { maskText } from '../../mask.js';
import { isPrompt, SessionNote, type TurnKind } from '../../model.js';
import { buildSession, slashCommandText, titleFrom, type RawTurn } from './build.js';
import { isRecord, isoTime, readJsonRecords, str } from './line-files.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';
import { splitInjected } from './harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILE_TOOLS = new Set(['Read', 'NotebookRead', 'View', 'read_file']);
const DIFF_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'str_replace_editor', 'str_replace_based_edit_tool']);
const TOOL_INPUT_MAX = 4000;

/** Titles found in a file and the record ids it holds, kept until `finalize` matches summaries across files. */
const titleEvidence = new SessionNote<{ explicit: boolean; uuids: Set<string>; summaries: Map<string, string> }>('title evidence', { travels: true });

function toolKind(name: string): TurnKind {
  if (FILE_TOOLS.has(name)) return 'file';
  if (DIFF_TOOLS.has(name)) return 'diff';
  return 'tool';
}

function describeToolUse(name: string, input: unknown): string {
  if (!isRecord(input)) return name;
  const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
  if (name === 'Bash' && str(input.command)) return `$ ${str(input.command)}`;
  if (path && FILE_TOOLS.has(name)) return `${name} ${path}`;
  if (path && (name === 'Edit' || name === 'MultiEdit')) {
    const edits = Array.isArray(input.edits) ? input.edits.filter(isRecord) : [input];
    const body = edits.map((e) => `- ${str(e.old_string) ?? ''}\n+ ${str(e.new_string) ?? ''}`).join('\n');
    return `${name} ${path}\n${body}`.slice(0, TOOL_INPUT_MAX * 4);
  }
  if (path && name === 'Write') return `Write ${path}\n${str(input.content) ?? ''}`;
  const json = JSON.stringify(input);
  return `${name} ${json.length > TOOL_INPUT_MAX ? `${json.slice(0, TOOL_INPUT_MAX)}…` : json}`;
}

/** The new text of each edit of an Edit, MultiEdit, Write or NotebookEdit call (their text shows old and new together). */
function writtenBy(input: unknown): string[] | undefined {
  if (!isRecord(input)) return undefined;
  const edits = Array.isArray(input.edits) ? input.edits.filter(isRecord) : [input];
  return edits.map((e) => str(e.new_string) ?? str(e.content) ?? str(e.new_source) ?? str(e.new_str) ?? str(e.file_text) ?? '').filter((t) => t.trim());
}

/** Text of a tool_result or message content: strings and text blocks; images and documents become a marker. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isRecord(block)) {
      if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (block.type === 'image') parts.push('[image]');
      else if (block.type === 'document') parts.push('[document]');
    }
  }
  return parts.join('\n');
}

/** A user text as turns: a slash command as typed; what the person wrote as a prompt; what the tool injected, notes. */
function userTexts(text: string): { text: string; kind: TurnKind; role: 'user' | 'system' }[] {
  const command = slashCommandText(text);
  if (command) return [{ text: command, kind: 'conversation', role: 'user' }];
  const { prompt, injected } = splitInjected(text);
  const out: { text: string; kind: TurnKind; role: 'user' | 'system' }[] = injected.map((note) => ({ text: noteText(note), kind: 'note', role: 'system' }));
  if (prompt) out.push({ text: prompt, kind: 'conversation', role: 'user' });
  return out;
}

/** A note shows what it says: local command output without its tags; reminders stay searchable as written. */
function noteText(note: string): string {
  const stdout = /^<local-command-(?:stdout|stderr|result)>([\s\S]*?)(?:<\/local-command-(?:stdout|stderr|result)>)?$/.exec(note);
  return stdout ? stdout[1] : note;
}

export function claudeNativeId(file: string, root: string): string {
  const stem = basename(file, '.jsonl');
  if (UUID.test(stem)) return stem;
  return relative(root, file)
    .split(sep)
    .join('/')
    .replace(/\.jsonl$/, '');
}

interface FileState {
  turns: RawTurn[];
  seen: Set<string>;
  messages: Map<string, MessageState>;
  tools: Map<string, { name: string; kind: TurnKind }>;
  cwd?: string;
  branch?: string;
  sessionIds: Set<string>;
  /** The name the person gave the session (`/rename`, a custom-title record): the last one given. */
  customTitle?: string;
  aiTitle?: string;
  summaries: Map<string, string>;
}

/** A block of an assistant message as far as merging needs it (a tool call by its id: its input is not kept). */
type Block = { type: 'text' | 'thinking'; text: string } | { type: 'tool_use'; key: string };
/** A tool call a line brings, with what it asked. */
type ToolUse = { key: string; name: string; input: unknown };

/** One API message written over several lines: its blocks so far, and the turns they became. */
interface MessageState {
  blocks: Block[];
  text?: number;
  thinking?: number;
  tools: Set<string>;
}

function toolUseOf(block: Record<string, unknown>): ToolUse {
  const name = str(block.name) ?? 'tool';
  return { key: str(block.id) ?? `${name} ${JSON.stringify(block.input ?? null)}`, name, input: block.input };
}

function blockOf(block: unknown): Block | undefined {
  if (!isRecord(block)) return undefined;
  if (block.type === 'text' && typeof block.text === 'string') return { type: 'text', text: block.text };
  if (block.type === 'thinking' && typeof block.thinking === 'string') return { type: 'thinking', text: block.thinking };
  if (block.type === 'tool_use') return { type: 'tool_use', key: toolUseOf(block).key };
  return undefined;
}

/** Whether `next` is the same block as `prev` or a later state of it (a streamed text that grew). */
function grows(prev: Block, next: Block): boolean {
  if (prev.type !== next.type) return false;
  if (prev.type === 'tool_use') return next.type === 'tool_use' && next.key === prev.key;
  return next.type !== 'tool_use' && next.text.startsWith(prev.text);
}

/**
 * Whether a line repeats the message so far, grown (some writers put the whole reply on every line, each a later
 * snapshot): then it replaces what was read. The usual line adds a block of its own and is appended.
 */
function isSnapshot(prev: Block[], next: Block[]): boolean {
  if (!prev.length || next.length < prev.length) return false;
  for (let i = 0; i < prev.length - 1; i++) if (!grows(prev[i], next[i]) || !grows(next[i], prev[i])) return false;
  return grows(prev[prev.length - 1], next[prev.length - 1]);
}

function readRecord(state: FileState, r: Record<string, unknown>, line: number): void {
  const type = str(r.type);
  if (type === 'summary' && str(r.summary) && str(r.leafUuid)) state.summaries.set(str(r.leafUuid)!, str(r.summary)!);
  if (type === 'custom-title' && str(r.customTitle)) state.customTitle = str(r.customTitle);
  if (type === 'ai-title' && str(r.aiTitle)) state.aiTitle = str(r.aiTitle);
  if (type !== 'user' && type !== 'assistant' && type !== 'system' && type !== 'attachment') return;
  const uuid = str(r.uuid);
  if (uuid) {
    if (state.seen.has(uuid)) return; // a resumed session copies earlier records: keep the first copy
    state.seen.add(uuid);
  }
  if (str(r.cwd)) state.cwd = str(r.cwd);
  const branch = str(r.gitBranch);
  if (branch && branch !== 'HEAD') state.branch = branch;
  if (str(r.sessionId)) state.sessionIds.add(str(r.sessionId)!);
  const timestamp = isoTime(r.timestamp);
  const sidechain = r.isSidechain === true ? true : undefined;
  const base = { timestamp, sidechain, line };
  if (type === 'system') return readSystem(state, r, base);
  if (type === 'attachment') {
    // a prompt typed while the agent worked, delivered when it could take it
    const attachment = isRecord(r.attachment) ? r.attachment : undefined;
    if (attachment?.type === 'queued_command') pushUserText(state, contentText(attachment.prompt), base);
    return;
  }
  const message = isRecord(r.message) ? r.message : undefined;
  if (!message) return;
  if (type === 'user') readUser(state, r, message, base);
  else readAssistant(state, message, base);
}

type Base = { timestamp?: string; sidechain?: boolean; line: number };

function readSystem(state: FileState, r: Record<string, unknown>, base: Base): void {
  if (r.subtype === 'compact_boundary') {
    state.turns.push({ ...base, role: 'system', kind: 'note', text: 'Conversation compacted.' });
    return;
  }
  noteRename(state, slashCommandText(str(r.content) ?? ''));
}

/** `/rename <name>` (typed, or the `system` line Claude Code writes for it) names the session: the last one wins. */
function noteRename(state: FileState, command: string | undefined): void {
  const name = command?.startsWith('/rename ') ? command.slice('/rename '.length).trim() : undefined;
  if (name) state.customTitle = name;
}

function pushUserText(state: FileState, text: string, base: Base): void {
  for (const t of userTexts(text)) {
    if (t.kind === 'conversation') noteRename(state, t.text);
    state.turns.push({ ...base, ...t });
  }
}

function readUser(state: FileState, r: Record<string, unknown>, message: Record<string, unknown>, base: Base): void {
  if (r.isMeta === true) return;
  if (r.isCompactSummary === true) {
    state.turns.push({ ...base, role: 'system', kind: 'note', text: contentText(message.content) });
    return;
  }
  const content = message.content;
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') pushUserText(state, block.text, base);
    else if (block.type === 'tool_result') {
      const tool = state.tools.get(str(block.tool_use_id) ?? '');
      const text = contentText(block.content);
      state.turns.push({ ...base, role: 'tool', kind: tool?.kind ?? 'tool', tool: tool?.name, text: block.is_error === true ? `Error: ${text}` : text });
    }
  }
}

function readAssistant(state: FileState, message: Record<string, unknown>, base: Base): void {
  const msgId = str(message.id);
  const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : Array.isArray(message.content) ? message.content : [];
  const blocks = content.map(blockOf).filter((b): b is Block => b !== undefined);
  const entry: MessageState = (msgId ? state.messages.get(msgId) : undefined) ?? { blocks: [], tools: new Set() };
  if (msgId) state.messages.set(msgId, entry);
  entry.blocks = isSnapshot(entry.blocks, blocks) ? blocks : [...entry.blocks, ...blocks];
  // the message's prose is one turn, its thinking another, each tool call its own: written once, however often repeated
  for (const slot of ['thinking', 'text'] as const) {
    const text = entry.blocks
      .filter((b) => b.type === slot)
      .map((b) => (b.type === slot ? b.text : ''))
      .join('\n\n');
    if (!text) continue;
    const index = entry[slot];
    if (index !== undefined) state.turns[index].text = text;
    else if (blocks.some((b) => b.type === slot)) {
      entry[slot] = state.turns.push({ ...base, role: 'assistant', kind: slot === 'text' ? 'conversation' : 'thinking', text }) - 1;
    }
  }
  // a tool call is written the first time a line brings it (a snapshot line brings again those already written)
  for (const use of content.filter((b) => isRecord(b) && b.type === 'tool_use').map((b) => toolUseOf(b as Record<string, unknown>))) {
    if (entry.tools.has(use.key)) continue;
    entry.tools.add(use.key);
    const kind = toolKind(use.name);
    state.tools.set(use.key, { name: use.name, kind });
    const written = kind === 'diff' ? writtenBy(use.input) : undefined;
    state.turns.push({ ...base, role: 'assistant', kind, tool: use.name, text: describeToolUse(use.name, use.input), ...(written?.length ? { written } : {}) });
  }
}

/** The transcript a sub-agent's file belongs to: `<session>/subagents/agent-*.jsonl` sits in its session's folder. */
function parentFile(file: string): string | undefined {
  const folder = dirname(file);
  if (basename(folder) !== 'subagents') return undefined;
  return `${dirname(folder)}.jsonl`;
}

export const claudeCodeSource: SourceAdapter = {
  id: 'claude-code',
  label: 'Claude Code',
  defaultRoots: DEFAULT_ROOTS['claude-code'],
  accepts: (file) => file.endsWith('.jsonl') && !file.includes(`${sep}tool-results${sep}`),
  async readFile(file, root, ctx) {
    const info = await stat(file);
    const state: FileState = { turns: [], seen: new Set(), messages: new Map(), tools: new Map(), sessionIds: new Set(), summaries: new Map() };
    await readJsonRecords(file, ctx.logger, (value, lineNo) => readRecord(state, value, lineNo), true, ctx.live);
    if (!state.turns.length) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    const isAgent = basename(file).startsWith('agent-');
    // the folder names the parent in today's layout; a project-level agent file (2.0.x) names it in its records
    const besideParent = isAgent ? parentFile(file) : undefined;
    const parent = besideParent ? claudeNativeId(besideParent, root) : isAgent ? [...state.sessionIds][0] : undefined;
    const ownLeaf = [...state.summaries.keys()].find((leaf) => state.seen.has(leaf));
    const explicit = state.customTitle ?? state.aiTitle ?? (ownLeaf ? state.summaries.get(ownLeaf) : undefined);
    const firstUser = state.turns.find(isPrompt)?.text;
    const session = buildSession(
      {
        source: 'claude-code',
        nativeId: claudeNativeId(file, root),
        topic: explicit ?? (isAgent && firstUser ? `Sub-agent: ${titleFrom(firstUser)}` : undefined),
        filename: basename(file, '.jsonl'),
        file,
        size: info.size,
        project: state.cwd,
        branch: state.branch,
        parentId: parent ? `claude-code:${parent}` : undefined,
        turns: state.turns,
      },
      info.mtime,
    );
    titleEvidence.set(session, { explicit: explicit !== undefined, uuids: state.seen, summaries: state.summaries });
    return [session];
  },
  async finalize(sessions, _roots, ctx) {
    // A load commits a large project in parts, newest first: a summary read in an earlier part (a resumed session's
    // newer file) still titles the session it names.
    const carried = ctx.carry?.get('claude-code:leafTitles');
    const leafTitles = carried instanceof Map ? (carried as Map<string, string>) : new Map<string, string>();
    ctx.carry?.set('claude-code:leafTitles', leafTitles);
    for (const s of sessions) for (const [leaf, title] of titleEvidence.get(s)?.summaries ?? []) leafTitles.set(leaf, title);
    for (const s of sessions) {
      const evidence = titleEvidence.get(s);
      if (!evidence) continue;
      titleEvidence.delete(s);
      if (evidence.explicit) continue;
      const leaf = [...evidence.uuids].map((uuid) => leafTitles.get(uuid)).find(Boolean);
      if (leaf) s.topic = maskText(titleFrom(leaf) ?? s.topic);
      else {
        // Read alone, this file does not hold the summary that titled it: the title it had stays.
        const before = ctx.previous?.(s.id);
        if (before && before.file === s.file) s.topic = before.topic;
      }
    }
  },
};
