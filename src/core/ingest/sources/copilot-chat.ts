/**
 * Copilot Chat in VS Code: `<UserData>/User/workspaceStorage/<id>/chatSessions/<session>.json` (whole document, ≤1.108)
 * or `.jsonl` (an operation log, ≥1.109: kind 0 sets the whole session, 1 sets a path, 2 pushes to an array after an
 * optional truncation, 3 deletes), empty-window and transferred sessions in globalStorage, and "Chat: Export Session"
 * files. The workspace folder comes from `workspace.json` beside `chatSessions/`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { ParsedSession, TurnKind } from '../../model.js';
import { buildSession, type RawTurn } from './build.js';
import { pathFromFileUri } from './locations.js';
import { isRecord, isoTime, readJsonRecords, str } from './line-files.js';
import type { SourceAdapter, SourceContext } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const CHAT_FOLDERS = new Set(['chatSessions', 'emptyWindowChatSessions', 'transferredChatSessions']);
const STORAGE_FOLDERS = new Set(['workspaceStorage', 'globalStorage', 'User']);
const MAX_BYTES = 256 * 1024 * 1024;

type Path = (string | number)[];

/** Replays VS Code's ObjectMutationLog entries onto a state object. */
export function applyMutation(state: { v: unknown }, entry: Record<string, unknown>): void {
  const kind = entry.kind;
  const path: Path = Array.isArray(entry.k) ? (entry.k as Path) : [];
  if (kind === 0) {
    state.v = entry.v;
    return;
  }
  if (!path.length) return;
  // A path is followed through the session's own properties only, and never sets `__proto__`: a hostile log cannot
  // reach Object.prototype (and change every object in the process) or swap an object's prototype.
  let parent: unknown = state.v;
  for (const key of path.slice(0, -1)) {
    if (!parent || typeof parent !== 'object' || !Object.hasOwn(parent, key)) return;
    parent = (parent as Record<string | number, unknown>)[key];
  }
  if (!parent || typeof parent !== 'object') return;
  const last = path[path.length - 1];
  if (last === '__proto__') return;
  const target = parent as Record<string | number, unknown>;
  if (kind === 1) target[last] = entry.v;
  else if (kind === 3) {
    if (Array.isArray(target) && typeof last === 'number') target.splice(last, 1);
    else delete target[last];
  } else if (kind === 2) {
    let list = target[last];
    if (!Array.isArray(list)) target[last] = list = [];
    const array = list as unknown[];
    if (typeof entry.i === 'number') array.length = Math.min(array.length, entry.i);
    if (Array.isArray(entry.v)) array.push(...(entry.v as unknown[]));
  }
}

const messageText = (v: unknown): string => (typeof v === 'string' ? v : isRecord(v) ? (str(v.value) ?? '') : '');

/** The command a terminal tool ran (`toolSpecificData.commandLine.original`, or `.command`). */
function terminalCommand(part: Record<string, unknown>): string | undefined {
  const data = isRecord(part.toolSpecificData) ? part.toolSpecificData : undefined;
  if (!data) return undefined;
  const line = isRecord(data.commandLine) ? (str(data.commandLine.original) ?? str(data.commandLine.toolEdited)) : undefined;
  return line ?? str(data.command);
}

function toolTurn(part: Record<string, unknown>, timestamp?: string): RawTurn {
  const name = str(part.toolId) ?? 'tool';
  const command = terminalCommand(part);
  // a call with no message of its own is still a call: its name says which
  const lines = [messageText(part.pastTenseMessage) || messageText(part.invocationMessage) || (command ? '' : name)];
  if (command) lines.push(`$ ${command}`);
  const details = isRecord(part.resultDetails) ? part.resultDetails : undefined;
  if (details) {
    if (details.input !== undefined) lines.push(typeof details.input === 'string' ? details.input : JSON.stringify(details.input));
    for (const out of Array.isArray(details.output) ? details.output : []) if (isRecord(out) && typeof out.value === 'string') lines.push(out.value);
  }
  const kind: TurnKind = /read|file/i.test(name) && !/edit|write|create/i.test(name) ? 'file' : /edit|write|create|replace/i.test(name) ? 'diff' : 'tool';
  return { role: 'tool', kind, tool: name, text: lines.filter(Boolean).join('\n'), timestamp };
}

/** What an inline reference points at, as written: a file's full path (a URI, or a location's), else its name. */
function referenceText(part: Record<string, unknown>, reference: Record<string, unknown>): string {
  const uri = isRecord(reference.uri) ? reference.uri : reference;
  return str(uri.fsPath) ?? str(uri.path) ?? str(part.name) ?? str(reference.name) ?? '';
}

/** One request (a prompt and its answer) as turns. Streaming markdown fragments are joined into one reply. */
export function requestTurns(request: Record<string, unknown>): RawTurn[] {
  const timestamp = isoTime(request.timestamp);
  const turns: RawTurn[] = [];
  const message = isRecord(request.message) ? request.message : {};
  const prompt = str(message.text);
  if (prompt) turns.push({ role: 'user', kind: 'conversation', text: prompt, timestamp });
  let reply: string[] = [];
  const flush = (): void => {
    const text = reply.join('').trim();
    if (text) turns.push({ role: 'assistant', kind: 'conversation', text, timestamp });
    reply = [];
  };
  for (const part of Array.isArray(request.response) ? request.response : []) {
    if (!isRecord(part)) continue;
    const kind = str(part.kind);
    if (!kind || kind === 'markdownContent') reply.push(messageText(part.content ?? part));
    else if (kind === 'inlineReference' && isRecord(part.inlineReference)) reply.push(`\`${referenceText(part, part.inlineReference)}\``);
    else if (kind === 'thinking') {
      flush();
      const text = messageText(part.value ?? part);
      if (text) turns.push({ role: 'assistant', kind: 'thinking', text, timestamp });
    } else if (kind === 'toolInvocationSerialized') {
      flush();
      if (part.presentation !== 'hidden') turns.push(toolTurn(part, timestamp));
    } else if (kind === 'textEditGroup' && isRecord(part.uri)) {
      flush();
      turns.push({ role: 'assistant', kind: 'diff', text: `Edited ${str(part.uri.fsPath) ?? str(part.uri.path) ?? ''}`, timestamp });
    }
  }
  flush();
  const error = isRecord(request.result) && isRecord(request.result.errorDetails) ? request.result.errorDetails : undefined;
  if (request.isCanceled === true || error?.code === 'canceled') turns.push({ role: 'system', kind: 'note', text: 'Request canceled.', timestamp });
  else if (error && str(error.message)) turns.push({ role: 'system', kind: 'note', text: `Error: ${str(error.message)}`, timestamp });
  return turns;
}

/** The workspace folder of a `workspaceStorage/<id>/chatSessions/` file. */
function workspaceFolder(file: string): string | undefined {
  const meta = join(dirname(dirname(file)), 'workspace.json');
  if (!existsSync(meta)) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(meta, 'utf8'));
    if (!isRecord(parsed)) return undefined;
    return pathFromFileUri(str(parsed.folder) ?? str(parsed.workspace) ?? '');
  } catch {
    return undefined;
  }
}

async function readDocument(file: string, ctx: SourceContext): Promise<unknown> {
  if (!file.endsWith('.jsonl')) return JSON.parse(await readFile(file, 'utf8'));
  const state: { v: unknown } = { v: undefined };
  await readJsonRecords(file, ctx.logger, (value) => applyMutation(state, value), false);
  return state.v;
}

/**
 * An id for a session file without its own (a "Chat: Export Session" file has none): its path under the root, or,
 * for an export imported alone (the file is its own root), `export-` and a hash of its content, so that every
 * imported export is a session of its own and keeps its id from run to run.
 */
async function exportId(file: string, root: string): Promise<string> {
  const path = relative(root, file)
    .split(sep)
    .join('/')
    .replace(/\.jsonl?$/, '');
  if (path) return path;
  return `export-${createHash('sha256')
    .update(await readFile(file))
    .digest('hex')
    .slice(0, 16)}`;
}

export const copilotChatSource: SourceAdapter = {
  id: 'copilot-chat',
  label: 'Copilot Chat',
  defaultRoots: DEFAULT_ROOTS['copilot-chat'],
  accepts(file, root) {
    if (!/\.jsonl?$/.test(file)) return false;
    const parts = relative(root, file).split(sep);
    if (parts.slice(0, -1).some((p) => CHAT_FOLDERS.has(p))) return true;
    // Outside VS Code's own storage (a folder of exported chats), any JSON file may be an export.
    return !STORAGE_FOLDERS.has(basename(root)) && basename(file) !== 'workspace.json';
  },
  async readFile(file, root, ctx) {
    const info = await stat(file);
    if (info.size > MAX_BYTES) {
      ctx.logger.warn(`${file}: skipped, ${info.size} bytes is over the ${MAX_BYTES}-byte limit`);
      return [];
    }
    const doc = await readDocument(file, ctx);
    if (!isRecord(doc) || !Array.isArray(doc.requests)) {
      ctx.logger.info(`${file}: not a chat session (no requests), skipped`);
      return [];
    }
    const turns = doc.requests.filter(isRecord).flatMap(requestTurns);
    if (!turns.length) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    const stem = basename(file).replace(/\.jsonl?$/, '');
    const session: ParsedSession = buildSession(
      {
        source: 'copilot-chat',
        nativeId: str(doc.sessionId) ?? (await exportId(file, root)),
        topic: str(doc.customTitle) ?? str(doc.computedTitle),
        filename: stem,
        file,
        size: info.size,
        created: isoTime(doc.creationDate),
        project: workspaceFolder(file),
        turns,
      },
      info.mtime,
    );
    return [session];
  },
  async finalize(sessions) {
    // VS Code keeps a .json beside the .jsonl that replaced it: the log wins.
    const logs = new Set(sessions.filter((s) => s.file.endsWith('.jsonl')).map((s) => s.nativeId));
    for (let i = sessions.length - 1; i >= 0; i--) if (!sessions[i].file.endsWith('.jsonl') && logs.has(sessions[i].nativeId)) sessions.splice(i, 1);
  },
};
