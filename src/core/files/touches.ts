/**
 * Which files a session's agent touched, read from its turns: each tool call that read, wrote, edited or deleted a file,
 * or ran a command naming one, with the turn it was made in. Kept on the session (`Session.files`, a few short strings
 * per session, stored in the snapshot with it) so that the file index is built without reading any turn again; the
 * text an edit wrote is read from its turn only when lines are asked about (attribution.ts).
 */
import { isAbsolute, resolve } from 'node:path';
import type { Turn } from '../model.js';

export type TouchKind = 'read' | 'write' | 'edit' | 'delete' | 'run';
export const TOUCH_KINDS: readonly TouchKind[] = ['read', 'write', 'edit', 'delete', 'run'];

export interface FileTouch {
  /** Absolute where the session's working folder made it so. */
  path: string;
  /** Index of the turn (its docid is `<session id>#<turn>`). */
  turn: number;
  kind: TouchKind;
}

const READ_TOOLS = /^(read|read_?file|view|view_?file|notebook_?read|open_?file|cat|read_?many_?files)$/i;
const WRITE_TOOLS = /^(write|write_?file|write_to_file|create_?file|new_?file|new_?file_?created)$/i;
const EDIT_TOOLS =
  /^(edit|multi_?edit|notebook_?edit|edit_?file|replace|replace_in_file|str_replace|search_replace|insert|apply_diff|edit_notebook|edited_?existing_?file)$/i;
const DELETE_TOOLS = /^(delete|delete_?file|remove_?file|rm)$/i;
/** Keys a tool's JSON arguments name its file with, in the sources read here. */
const PATH_KEYS = ['file_path', 'filePath', 'notebook_path', 'path', 'absolute_path', 'target_file', 'targetFile', 'filename', 'file'];
/** At most this many files per command line: a `find` or a long `git add` names more than anyone asks about. */
const MAX_RUN_PATHS = 12;

/** The files a session's turns touched, in turn order (one per file and turn). */
export function fileTouches(turns: readonly Pick<Turn, 'role' | 'kind' | 'tool' | 'text'>[], cwd?: string): FileTouch[] {
  const out: FileTouch[] = [];
  turns.forEach((turn, index) => {
    if (turn.role !== 'assistant' || turn.kind === 'conversation' || turn.kind === 'thinking' || turn.kind === 'note') return;
    const seen = new Set<string>();
    for (const { path, kind } of turnTouches(turn)) {
      const absolute = cwd && !isAbsolute(path) && !/^[a-z]:[\\/]/i.test(path) ? resolve(cwd, path) : path;
      if (seen.has(absolute)) continue;
      seen.add(absolute);
      out.push({ path: absolute, turn: index, kind });
    }
  });
  return out;
}

/** SpecStory's Markdown of a tool call: `Tool use: **Edit**`, then the path in backticks or the tool's own answer. */
const SPECSTORY_TOOL = /^Tool use: \*\*([\w.-]+)\*\*/;

function specStoryTouches(tool: string, text: string): { path: string; kind: TouchKind }[] {
  const command = /```(?:bash|sh|shell)\n([^\n]+)/.exec(text)?.[1];
  if (command) return commandFiles(command);
  const path = /^\s*`([^`\n]+)`/m.exec(text.slice(text.indexOf('\n') + 1))?.[1] ?? /\bThe file (\S+) has been (?:updated|created)/.exec(text)?.[1];
  return path ? turnTouches({ tool, text: `${tool} ${path}` }) : [];
}

function turnTouches(turn: Pick<Turn, 'tool' | 'text'>): { path: string; kind: TouchKind }[] {
  const specStory = SPECSTORY_TOOL.exec(turn.text);
  if (specStory) return specStoryTouches(specStory[1], turn.text);
  const tool = turn.tool ?? '';
  if (tool === 'apply_patch' || turn.text.startsWith('*** Begin Patch')) return patchFiles(turn.text).map(({ path, kind }) => ({ path, kind }));
  if (turn.text.startsWith('$ ')) return commandFiles(turn.text.slice(2));
  // Copilot Chat's edit groups: "Edited <path>"
  const edited = /^Edited (.+)$/m.exec(turn.text.split('\n')[0]);
  if (edited && !tool) return looksLikePath(edited[1].trim()) ? [{ path: edited[1].trim(), kind: 'edit' }] : [];
  const rest = turn.text.slice(tool.length + 1);
  const json = rest.startsWith('{') ? parseObject(rest.split('\n')[0]) : undefined;
  const named = json ? jsonPath(json) : turn.text.startsWith(`${tool} `) ? rest.split('\n')[0].trim() : undefined;
  // a terminal command given as arguments (Cursor's run_terminal_cmd, Gemini's run_shell_command)
  if (!named && typeof json?.command === 'string' && /command|terminal|shell|bash|exec/i.test(tool)) return commandFiles(json.command);
  if (!named || !looksLikePath(named)) return [];
  const command = typeof json?.command === 'string' ? json.command : '';
  let kind: TouchKind | undefined;
  if (READ_TOOLS.test(tool) || command === 'view') kind = 'read';
  else if (WRITE_TOOLS.test(tool) || command === 'create') kind = 'write';
  else if (EDIT_TOOLS.test(tool) || /str_replace|edit/i.test(tool)) kind = 'edit';
  else if (DELETE_TOOLS.test(tool)) kind = 'delete';
  return kind ? [{ path: named, kind }] : [];
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // arguments cut short for the index: no path read from them
  }
}

function jsonPath(args: Record<string, unknown>): string | undefined {
  for (const key of PATH_KEYS) if (typeof args[key] === 'string' && args[key]) return args[key];
  return undefined;
}

function looksLikePath(text: string): boolean {
  return text.length > 0 && text.length < 1024 && !/[\n*?<>|]/.test(text) && !/^[a-z]+:\/\//i.test(text);
}

/** One file's part of a patch in the apply_patch format (Codex): what it does and the lines it adds. */
export interface PatchFile {
  path: string;
  kind: TouchKind;
  added: string[];
}

/** The files of an apply_patch text (`*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`). */
export function patchFiles(text: string): PatchFile[] {
  const files: PatchFile[] = [];
  let current: PatchFile | undefined;
  for (const line of text.split('\n')) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      current = { path: header[2].trim(), kind: header[1] === 'Add' ? 'write' : header[1] === 'Delete' ? 'delete' : 'edit', added: [] };
      files.push(current);
      continue;
    }
    const moved = /^\*\*\* Move to: (.+)$/.exec(line);
    if (moved && current) {
      // a rename: the old path is gone, the new one holds the edited text
      current.kind = 'delete';
      current = { path: moved[1].trim(), kind: 'write', added: current.added };
      files.push(current);
      continue;
    }
    if (current && line.startsWith('+') && !line.startsWith('+++')) current.added.push(line.slice(1));
  }
  return files;
}

/** Files a shell command names: `rm` deletes, `mv` moves (the old path deleted, the new written), the rest runs on them. */
function commandFiles(command: string): { path: string; kind: TouchKind }[] {
  const out: { path: string; kind: TouchKind }[] = [];
  for (const part of command.split(/&&|\|\||;|\|/)) {
    const words = shellWords(part.trim()).filter((w) => !w.startsWith('-'));
    let verb = words.shift() ?? '';
    if (verb === 'git' || verb === 'sudo') verb = words.shift() ?? '';
    const paths = words.filter((w) => looksLikePath(w) && /[/\\]|\.[a-z0-9]{1,8}$/i.test(w) && !w.includes('='));
    if (verb === 'rm' || verb === 'unlink') for (const p of paths) out.push({ path: p, kind: 'delete' });
    else if (verb === 'mv' && paths.length === 2) out.push({ path: paths[0], kind: 'delete' }, { path: paths[1], kind: 'write' });
    else for (const p of paths) out.push({ path: p, kind: 'run' });
    if (out.length >= MAX_RUN_PATHS) break;
  }
  return out.slice(0, MAX_RUN_PATHS);
}

/** Words of a command line, quotes removed (no expansion: enough to see which files it names). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  // (a command given to a shell in quotes is split at && before its quotes close: their ends are left on its words)
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push((m[1] ?? m[2] ?? m[3]).replace(/^["']+|["';]+$/g, ''));
  return words;
}

/** `Session.files`: each touch as `<kind letter><turn> <path>`, short and plain for the snapshot. */
export function encodeTouches(touches: readonly FileTouch[]): string[] {
  return touches.map((t) => `${LETTERS[t.kind]}${t.turn} ${t.path}`);
}

const LETTERS: Record<TouchKind, string> = { read: 'r', write: 'w', edit: 'e', delete: 'd', run: 'x' };
const BY_LETTER = new Map(TOUCH_KINDS.map((k) => [LETTERS[k], k]));

export function decodeTouch(encoded: string): FileTouch | undefined {
  const space = encoded.indexOf(' ');
  const kind = BY_LETTER.get(encoded[0]);
  const turn = Number(encoded.slice(1, space));
  if (!kind || space < 2 || !Number.isInteger(turn)) return undefined;
  return { kind, turn, path: encoded.slice(space + 1) };
}
