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
import type { Session } from '../../model.js';
import { buildSession, titleFrom, type RawTurn } from './build.js';
import { isRecord, isoTime, parseJsonLines, parseJsonObject, readJsonRecords, readLines, str } from './line-files.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const UUID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$/i;
const COMPRESSED = '.zst';
const INJECTED = /^\s*(<environment_context>|<user_instructions>|<permissions|# AGENTS\.md|<skills|<INSTRUCTIONS>|<user_shell_command>)/;
const NOT_TRANSCRIPTS = new Set(['session_index.jsonl', 'history.jsonl']);

interface CodexState {
  meta: { id?: string; cwd?: string; branch?: string; created?: string };
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

function readItem(state: CodexState, p: Record<string, unknown>, base: { timestamp?: string; line: number }): void {
  const type = str(p.type);
  if (type === 'message') {
    const role = str(p.role);
    const text = textOf(p.content);
    if (role === 'user' && !INJECTED.test(text)) state.userItems.push({ ...base, role: 'user', kind: 'conversation', text });
    else if (role === 'assistant') state.assistantItems.push({ ...base, role: 'assistant', kind: 'conversation', text });
  } else if (type === 'reasoning' && Array.isArray(p.summary)) {
    const text = p.summary.map((s) => (isRecord(s) ? (str(s.text) ?? '') : '')).join('\n');
    state.other.push({ ...base, role: 'assistant', kind: 'thinking', text });
  } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
    const name = str(p.name) ?? type;
    const args = str(p.arguments) ?? str(p.input) ?? JSON.stringify(p.action ?? {});
    const kind = name === 'apply_patch' ? 'diff' : 'tool';
    if (str(p.call_id)) state.calls.set(str(p.call_id)!, name);
    state.other.push({ ...base, role: 'assistant', kind, tool: name, text: name === 'apply_patch' ? args : describeCall(name, args) });
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const name = state.calls.get(str(p.call_id) ?? '');
    const output = typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? '');
    state.other.push({ ...base, role: 'tool', kind: name === 'apply_patch' ? 'diff' : 'tool', tool: name, text: output });
  } else if (type === 'web_search_call' && isRecord(p.action)) {
    state.other.push({ ...base, role: 'assistant', kind: 'tool', tool: 'web_search', text: `web search: ${str(p.action.query) ?? ''}` });
  }
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
    } else if (type && r.record_type === undefined) readItem(state, r, base);
    return;
  }
  if (type === 'session_meta') {
    state.meta.id = str(payload.id) ?? str(payload.session_id) ?? state.meta.id;
    state.meta.cwd = str(payload.cwd) ?? state.meta.cwd;
    state.meta.created = isoTime(payload.timestamp) ?? timestamp;
    if (isRecord(payload.git)) state.meta.branch = str(payload.git.branch) ?? state.meta.branch;
  } else if (type === 'turn_context') {
    state.meta.cwd ??= str(payload.cwd);
  } else if (type === 'response_item') {
    readItem(state, payload, base);
  } else if (type === 'compacted') {
    if (str(payload.message)) state.other.push({ ...base, role: 'system', kind: 'note', text: str(payload.message)! });
  } else if (type === 'event_msg') {
    if (payload.type === 'user_message' && typeof payload.message === 'string') {
      state.userEvents.push({ ...base, role: 'user', kind: 'conversation', text: payload.message });
    } else if (payload.type === 'agent_message' && typeof payload.message === 'string') {
      state.agentEvents.push({ ...base, role: 'assistant', kind: 'conversation', text: payload.message });
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
    const state: CodexState = { meta: {}, userEvents: [], userItems: [], assistantItems: [], agentEvents: [], other: [], calls: new Map() };
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
    const users = state.userEvents.length ? state.userEvents : state.userItems;
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
