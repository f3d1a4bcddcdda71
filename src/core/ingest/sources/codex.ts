/**
 * Codex: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` and `archived_sessions/`. Every visible message is written
 * twice (response_item and event_msg); we keep one channel: the user's own words from `event_msg/user_message`
 * (response_item user messages carry injected context) and the assistant's from `response_item`. Encrypted reasoning
 * is never read. Also reads the older envelope-less variant (first line is the session header, then bare items), and
 * rollouts Codex compressed after a week idle (`.jsonl.zst`, zstd, decompressed in memory with fzstd; when a resumed
 * thread has its plain `.jsonl` back beside it, the plain file is read).
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { decompress } from 'fzstd';
import { basename, dirname, join } from 'node:path';
import { maskText } from '../../mask.js';
import { isPrompt, type Session } from '../../model.js';
import { buildSession, titleFrom, type RawTurn } from './build.js';
import { isRecord, isoTime, parseJsonLines, parseJsonObject, readJsonRecords, readLines, str } from './line-files.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';
import { splitInjected } from './harness.js';

const UUID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$/i;
const COMPRESSED = '.zst';
/** A forked rollout's copy of its parent's history is written in one burst at the fork: what comes later is its own. */
const REPLAY_WINDOW_MS = 2000;
const NOT_TRANSCRIPTS = new Set(['session_index.jsonl', 'history.jsonl']);

interface CodexState {
  meta: { id?: string; cwd?: string; branch?: string; created?: string; parent?: string; subagent?: boolean };
  /** A fork or sub-agent copying its parent's history: until when (epoch ms) copied records are left out. */
  replay?: { until: number; on: boolean };
  /** The last prompt, and whether a turn was aborted after it (Codex sends the same prompt again). */
  lastPrompt?: { text: string; aborted: boolean };
  /** Tasks and follow-ups another agent sent this one: its prompts, whichever channel the person's words come from. */
  delegated: RawTurn[];
  userEvents: RawTurn[];
  userItems: RawTurn[];
  assistantItems: RawTurn[];
  agentEvents: RawTurn[];
  /** Everything else in file order; user and assistant turns are merged back in by line number. */
  other: RawTurn[];
  calls: Map<string, string>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) => (isRecord(c) ? (str(c.text) ?? (c.type === 'input_image' ? '[image]' : '')) : ''))
    .filter(Boolean)
    .join('\n');
}

/** A call's arguments as written: a JSON string usually, an object in some converted rollouts. */
function argumentsOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? undefined : JSON.stringify(value);
}

function describeCall(name: string, args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (isRecord(parsed)) {
      const cmd = parsed.command ?? parsed.cmd;
      if (Array.isArray(cmd)) return `$ ${cmd.map(String).join(' ')}`;
      if (typeof cmd === 'string') return `$ ${cmd}`;
    }
  } catch {
    // arguments are usually JSON; when not, show them as written
  }
  return `${name} ${args}`;
}

/** A user message as turns: what the person wrote; injected context (instructions, environment) is left out. */
function userTurns(state: CodexState, text: string, base: { timestamp?: string; line: number }, into: RawTurn[]): void {
  const { prompt, injected } = splitInjected(text);
  const aborted = injected.some((part) => part.startsWith('<turn_aborted>'));
  if (aborted) {
    into.push({ ...base, role: 'system', kind: 'note', text: 'Turn aborted.' });
    if (state.lastPrompt) state.lastPrompt.aborted = true;
  }
  if (!prompt) return;
  // after an abort Codex sends the interrupted prompt again: the same prompt, not a second one
  if (state.lastPrompt?.aborted && state.lastPrompt.text === prompt) return;
  into.push({ ...base, role: 'user', kind: 'conversation', text: prompt });
  state.lastPrompt = { text: prompt, aborted: false };
}

/** A message another agent sent (`agent_message` items, inter-agent records): its text. */
function agentMessageText(p: Record<string, unknown>): string {
  return textOf(p.content) || (str(p.message) ?? str(p.text) ?? '');
}

function readItem(state: CodexState, p: Record<string, unknown>, base: { timestamp?: string; line: number }): void {
  // converted rollouts may leave out a message's type: a role and content say what it is
  const type = str(p.type) ?? (str(p.role) && p.content !== undefined ? 'message' : undefined);
  if (type === 'message') {
    const role = str(p.role);
    const text = textOf(p.content);
    if (role === 'user') userTurns(state, text, base, state.userItems);
    else if (role === 'assistant') state.assistantItems.push({ ...base, role: 'assistant', kind: 'conversation', text });
  } else if (type === 'agent_message') {
    const text = agentMessageText(p);
    // in a sub-agent, its parent's message is the task (or a follow-up); elsewhere, what an agent reported
    if (state.meta.subagent) state.delegated.push({ ...base, role: 'user', kind: 'conversation', text });
    else state.other.push({ ...base, role: 'system', kind: 'note', text });
  } else if (type === 'reasoning' && Array.isArray(p.summary)) {
    const text = p.summary.map((s) => (isRecord(s) ? (str(s.text) ?? '') : '')).join('\n');
    state.other.push({ ...base, role: 'assistant', kind: 'thinking', text });
  } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
    const name = str(p.name) ?? type;
    const args = argumentsOf(p.arguments) ?? argumentsOf(p.input) ?? JSON.stringify(p.action ?? {});
    const kind = name === 'apply_patch' ? 'diff' : 'tool';
    if (str(p.call_id)) state.calls.set(str(p.call_id)!, name);
    state.other.push({ ...base, role: 'assistant', kind, tool: name, text: name === 'apply_patch' ? patchText(args) : describeCall(name, args) });
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const name = state.calls.get(str(p.call_id) ?? '');
    const output = typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? '');
    state.other.push({ ...base, role: 'tool', kind: name === 'apply_patch' ? 'diff' : 'tool', tool: name, text: output });
  } else if (type === 'web_search_call' && isRecord(p.action)) {
    state.other.push({ ...base, role: 'assistant', kind: 'tool', tool: 'web_search', text: `web search: ${str(p.action.query) ?? ''}` });
  }
}

/** An apply_patch call's patch: its text, or the `input`/`patch` field of arguments given as an object. */
function patchText(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (isRecord(parsed)) return str(parsed.input) ?? str(parsed.patch) ?? args;
  } catch {
    // the patch itself, as custom_tool_call writes it
  }
  return args;
}

/** The session_meta of a rollout: its own (the first), or a parent's copied into a fork (later ones). */
function readMeta(state: CodexState, payload: Record<string, unknown>, timestamp: string | undefined): void {
  const id = str(payload.id) ?? str(payload.session_id);
  if (state.meta.id !== undefined && id !== undefined && id !== state.meta.id) {
    // a parent's meta in a fork's copy of its history: what follows it, written at the fork, is the parent's
    if (state.meta.parent) state.replay = { until: Date.parse(state.meta.created ?? timestamp ?? '') + REPLAY_WINDOW_MS, on: true };
    return;
  }
  state.meta.id = id ?? state.meta.id;
  state.meta.cwd = str(payload.cwd) ?? state.meta.cwd;
  state.meta.created = isoTime(payload.timestamp) ?? timestamp;
  if (isRecord(payload.git)) state.meta.branch = str(payload.git.branch) ?? state.meta.branch;
  const source = isRecord(payload.source) ? payload.source : undefined;
  const spawn = isRecord(source?.subagent) && isRecord(source.subagent.thread_spawn) ? source.subagent.thread_spawn : undefined;
  const spawnedBy = str(spawn?.parent_thread_id) ?? str(payload.parent_thread_id);
  if (source?.subagent !== undefined || spawnedBy || payload.thread_source === 'subagent') state.meta.subagent = true;
  state.meta.parent = spawnedBy ?? str(payload.forked_from_id) ?? state.meta.parent;
}

/** Whether a record is part of a fork's copy of its parent's history (left out: the parent holds it). */
function replayed(state: CodexState, timestamp: string | undefined): boolean {
  if (!state.replay?.on) return false;
  const at = timestamp ? Date.parse(timestamp) : NaN;
  if (Number.isFinite(at) && at > state.replay.until) state.replay.on = false;
  return state.replay.on;
}

function readCodexLine(state: CodexState, r: Record<string, unknown>, line: number): void {
  const timestamp = isoTime(r.timestamp);
  const base = { timestamp, line };
  const payload = isRecord(r.payload) ? r.payload : undefined;
  const type = str(r.type);
  if (!payload) {
    // Older envelope-less rollouts: a header line, then bare response items.
    if (line === 1 && str(r.id) && type === undefined) {
      state.meta.id = str(r.id);
      state.meta.created = isoTime(r.timestamp);
      if (isRecord(r.git)) state.meta.branch = str(r.git.branch);
    } else if ((type || (str(r.role) && r.content !== undefined)) && r.record_type === undefined) readItem(state, r, base);
    return;
  }
  if (type === 'session_meta') return readMeta(state, payload, timestamp);
  // (a task another agent sent is this rollout's own, even inside the burst its spawn writes)
  const delegation = type === 'inter_agent_communication' || (type === 'response_item' && payload.type === 'agent_message');
  if (replayed(state, timestamp) && !delegation) return;
  if (type === 'turn_context') {
    state.meta.cwd ??= str(payload.cwd);
  } else if (type === 'response_item') {
    readItem(state, payload, base);
  } else if (type === 'inter_agent_communication') {
    readItem(state, { ...payload, type: 'agent_message' }, base);
  } else if (type === 'compacted') {
    if (str(payload.message)) state.other.push({ ...base, role: 'system', kind: 'note', text: str(payload.message)! });
  } else if (type === 'event_msg') {
    if (payload.type === 'user_message' && typeof payload.message === 'string') {
      userTurns(state, payload.message, base, state.userEvents);
    } else if (payload.type === 'agent_message' && typeof payload.message === 'string') {
      state.agentEvents.push({ ...base, role: 'assistant', kind: 'conversation', text: payload.message });
    } else if (payload.type === 'turn_aborted') {
      if (state.lastPrompt) state.lastPrompt.aborted = true;
    }
  }
}

async function readTitles(home: string): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  const file = join(home, 'session_index.jsonl');
  if (!existsSync(file)) return titles;
  await readLines(
    file,
    (line) => {
      const { value } = parseJsonObject(line);
      if (value && str(value.id) && str(value.thread_name)) titles.set(str(value.id)!, str(value.thread_name)!);
    },
    { includePartialTail: true },
  );
  return titles;
}

/** CODEX_HOME for a root that is either the home itself or its `sessions` / `archived_sessions` folder. */
function homeOf(root: string): string {
  const name = basename(root);
  return name === 'sessions' || name === 'archived_sessions' ? dirname(root) : root;
}

export const codexSource: SourceAdapter = {
  id: 'codex',
  label: 'Codex',
  defaultRoots: DEFAULT_ROOTS.codex,
  accepts: (file) => (file.endsWith('.jsonl') || file.endsWith(`.jsonl${COMPRESSED}`)) && !NOT_TRANSCRIPTS.has(basename(file)),
  successor: (file) => `${file}${COMPRESSED}`,
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    const state: CodexState = { meta: {}, delegated: [], userEvents: [], userItems: [], assistantItems: [], agentEvents: [], other: [], calls: new Map() };
    const onRecord = (value: Record<string, unknown>, lineNo: number): void => readCodexLine(state, value, lineNo);
    if (file.endsWith(COMPRESSED)) {
      // Codex compresses rollouts idle for a week; while a resumed thread is written, its plain file wins
      const plain = file.slice(0, -COMPRESSED.length);
      if (existsSync(plain)) {
        ctx.logger.info(`${file}: ${basename(plain)} is read instead (the thread was resumed)`);
        return [];
      }
      parseJsonLines(Buffer.from(decompress(await readFile(file))).toString('utf8'), file, ctx.logger, onRecord);
    } else await readJsonRecords(file, ctx.logger, onRecord, true, ctx.live);
    const users = [...state.delegated, ...(state.userEvents.some(isPrompt) ? state.userEvents : state.userItems)];
    const assistants = state.assistantItems.length ? state.assistantItems : state.agentEvents;
    const turns = [...users, ...assistants, ...state.other].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    if (!turns.length) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    const name = basename(file).replace(/\.jsonl(\.zst)?$/, '');
    const nativeId = state.meta.id ?? UUID_IN_NAME.exec(file)?.[1] ?? name;
    return [
      buildSession(
        {
          source: 'codex',
          nativeId,
          filename: name,
          file,
          size: info.size,
          created: state.meta.created,
          project: state.meta.cwd,
          branch: state.meta.branch,
          parentId: state.meta.parent ? `codex:${state.meta.parent}` : undefined,
          turns,
        },
        info.mtime,
      ),
    ];
  },
  async finalize(sessions: Session[], roots: string[]) {
    const titles = new Map<string, string>();
    for (const home of new Set(roots.map(homeOf))) for (const [id, t] of await readTitles(home)) titles.set(id, t);
    for (const s of sessions) {
      const title = titles.get(s.nativeId);
      if (title) s.topic = maskText(titleFrom(title) ?? s.topic);
    }
  },
};
