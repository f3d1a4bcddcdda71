/** The normalised shape every source adapter produces. Text here is already masked. */
import type { PreferenceEvidence } from './ingest/preference-evidence.js';

export const SOURCE_IDS = [
  'codearchitect',
  'claude-code',
  'codex',
  'copilot-chat',
  'gemini',
  'cursor',
  'cline',
  'roo',
  'opencode',
  'specstory',
  'aider',
  'copilot-cli',
  'amp',
  'continue',
  'qwen',
  'goose',
  'kimi',
  'droid',
  'crush',
  'openhands',
  'kiro',
  'zed',
  'chatgpt',
  'claude-ai',
  'gemini-takeout',
] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

/**
 * The rules by which the source readers make sessions of transcripts (what is a prompt, a note, a fork, a title):
 * raised when they change, so that archive entries and snapshots made under older rules are read again from their
 * transcripts (sessions whose transcript is gone keep what the archive holds). 2: harness text as notes, queued
 * prompts, Codex forks and sub-agents, renames.
 */
export const READ_RULES_VERSION = 2;

export type Role = 'user' | 'assistant' | 'tool' | 'system';
/** How a search ranks: words and meaning fused (the default), words only, meaning only. */
export const SEARCH_MODES = ['hybrid', 'lexical', 'semantic'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** What a session is exported as (export.ts): Markdown, a self-contained HTML page, or JSON. */
export const EXPORT_FORMATS = ['md', 'html', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ROLES: readonly Role[] = ['user', 'assistant', 'tool', 'system'];

/** conversation: prose between user and agent; file: a file was read; diff: a file was edited. */
export type TurnKind = 'conversation' | 'file' | 'diff' | 'note' | 'tool' | 'thinking';
export const TURN_KINDS: readonly TurnKind[] = ['conversation', 'file', 'diff', 'note', 'tool', 'thinking'];
/** What search_context can return: a turn of any kind, or a decision (a prompt or reply where something was settled). */
export type BlockType = TurnKind | 'decision';
export const BLOCK_TYPES: readonly BlockType[] = [...TURN_KINDS, 'decision'];

export interface Turn {
  /** `<session id>#<index>`: also the docid a reader pages through. */
  id: string;
  role: Role;
  kind: TurnKind;
  text: string;
  /** ISO timestamp when the source records one. */
  timestamp?: string;
  /** Name of the tool for tool calls and results. */
  tool?: string;
  /** Sub-agent (sidechain) turn written inline in the parent transcript. */
  sidechain?: boolean;
  /** 1-based line in the source file where this turn starts, when known. */
  line?: number;
  /**
   * A tool call that wrote a file, where its text alone cannot say exactly what it wrote (an edit's old and new text
   * shown together): the new text of each of its edits, masked like the text.
   */
  written?: string[];
}

export interface Session {
  /** `<source>:<native id>`, unique across sources. */
  id: string;
  source: SourceId;
  /** The id the tool itself uses (for resume commands). */
  nativeId: string;
  /** Title or topic, as the tool names it, else the first prompt. */
  topic: string;
  /** CodeArchitect's folder name, or the file's base name for other sources. */
  filename: string;
  /** Absolute path of the transcript file. */
  file: string;
  size: number;
  /** ISO timestamps. */
  created: string;
  updated: string;
  /** Local calendar days (YYYY-MM-DD) the session starts and ends on: date filters match any day in between. */
  firstDay: string;
  lastDay: string;
  project?: string;
  branch?: string;
  /** Parent session for sub-agent transcripts stored in their own file. */
  parentId?: string;
  /** The tool deleted the transcript; the session lives on in the archive. */
  sourceDeleted?: boolean;
  /** Lines of its transcript that could not be read (ingest/unread-lines.ts): how many, and the first reasons. */
  unreadLines?: { count: number; reasons: string[] };
  /**
   * What it is about (ingest/topics.ts), found when it was read (empty: none): derived tags. Absent only in a session
   * written before they were found at reading, which has them found from its turns when first asked for.
   */
  topics?: string[];
  /** Acronyms its conversation defines, [short, long] lower-cased (index/short-forms.ts): a query's short forms. */
  acronyms?: [string, string][];
  /** The decisions its prompts and replies state, `<turn>\t<sentence>` (answer/decisions.ts `sessionDecisions`). */
  decisions?: string[];
  /** The files its agent read, wrote, edited, deleted or ran commands on (files/touches.ts `encodeTouches`). */
  files?: string[];
  /** What it shows about how its person likes to work (ingest/preference-evidence.ts), found when it was read. */
  preferences?: PreferenceEvidence[];
  /**
   * Its turns, while they are held in memory: a session just read from its transcript, or held by a library with no
   * data folder. A library keeps the turns of the sessions it stored on disk (none here): its turn store reads them
   * (store/turn-store.ts).
   */
  turns?: Turn[];
}

/** A session as a source adapter reads it from its transcript: every turn in memory. */
export type ParsedSession = Session & { turns: Turn[] };

/** Local calendar day of an instant, YYYY-MM-DD. */
export function localDay(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/**
 * Something the engine notes beside a session while it holds it (where its turns lie, what a reader of one file found
 * out about its title): kept on the session object itself, not enumerable, so it is never stored or shown, never
 * shared between libraries, and goes when the session goes. Each kind of note is declared once by the module using it.
 */
export class SessionNote<T> {
  /** Notes that go with a session parsed on another thread (parse-pool.ts), by name. */
  private static readonly travelling = new Map<string, SessionNote<unknown>>();
  private readonly key: symbol;

  /** `travels`: the note is made while a file is parsed and needed after (by a fix-up across files). */
  constructor(name: string, options: { travels?: boolean } = {}) {
    this.key = Symbol(name);
    if (options.travels) SessionNote.travelling.set(name, this as SessionNote<unknown>);
  }

  /** The travelling notes of a session, as data a thread can post. */
  static pack(session: Session): Record<string, unknown> | undefined {
    let out: Record<string, unknown> | undefined;
    for (const [name, note] of SessionNote.travelling) {
      const value = note.get(session);
      if (value !== undefined) (out ??= {})[name] = value;
    }
    return out;
  }

  /** Puts back on a session what `pack` took from its twin on another thread. */
  static unpack(session: Session, packed: Record<string, unknown> | undefined): void {
    for (const [name, value] of Object.entries(packed ?? {})) SessionNote.travelling.get(name)?.set(session, value);
  }

  get(session: Session): T | undefined {
    return (session as unknown as Record<symbol, T | undefined>)[this.key];
  }

  set(session: Session, value: T): void {
    Object.defineProperty(session, this.key, { value, enumerable: false, configurable: true, writable: true });
  }

  delete(session: Session): void {
    delete (session as unknown as Record<symbol, T | undefined>)[this.key];
  }
}

/**
 * What lists and the tree show of a session whose turns are on disk (store/turn-store.ts): how many turns, and the
 * start of the first prompt. Sessions held in memory have none and are counted directly.
 */
export const turnSummaries = new SessionNote<{ count: number; firstPrompt?: string }>('turn summary');

/** Characters of the first prompt kept for tooltips. */
export const FIRST_PROMPT_CHARS = 300;

/** A prompt the user typed (not a tool result, an injected reminder or a reply). */
export function isPrompt(turn: Pick<Turn, 'role' | 'kind'>): boolean {
  return turn.role === 'user' && turn.kind === 'conversation';
}

/** The first prompt (its first FIRST_PROMPT_CHARS characters for a session whose turns are on disk). */
export function firstPrompt(session: Session): string | undefined {
  const summary = turnSummaries.get(session);
  if (summary) return summary.firstPrompt;
  return session.turns?.find(isPrompt)?.text;
}

export function turnCount(session: Session): number {
  return turnSummaries.get(session)?.count ?? session.turns?.length ?? 0;
}

const isString = (x: unknown): x is string => typeof x === 'string';
const optional = (x: unknown, check: (y: unknown) => boolean): boolean => x === undefined || check(x);

/** A turn as the rest of the engine relies on it: read back from disk, anything else is damage. */
export function isTurn(x: unknown): x is Turn {
  if (typeof x !== 'object' || x === null) return false;
  const t = x as Record<string, unknown>;
  return (
    isString(t.id) &&
    ROLES.includes(t.role as Role) &&
    TURN_KINDS.includes(t.kind as TurnKind) &&
    isString(t.text) &&
    optional(t.timestamp, isString) &&
    optional(t.tool, isString) &&
    optional(t.line, Number.isInteger)
  );
}

/** A session read back from disk (an archive line) with every field the engine reads, and well-formed turns. */
export function isSession(x: unknown): x is ParsedSession {
  if (typeof x !== 'object' || x === null) return false;
  const s = x as Record<string, unknown>;
  return (
    isString(s.id) &&
    SOURCE_IDS.includes(s.source as SourceId) &&
    isString(s.nativeId) &&
    isString(s.topic) &&
    isString(s.filename) &&
    isString(s.file) &&
    typeof s.size === 'number' &&
    isString(s.created) &&
    isString(s.updated) &&
    isString(s.firstDay) &&
    isString(s.lastDay) &&
    optional(s.project, isString) &&
    optional(s.branch, isString) &&
    optional(s.parentId, isString) &&
    Array.isArray(s.turns) &&
    s.turns.every(isTurn)
  );
}

/** Role and kind of a turn packed in one number (an archive line's turn layout, store/session-layout.ts). */
export function turnFlags(turn: Turn): number {
  return ROLES.indexOf(turn.role) | (TURN_KINDS.indexOf(turn.kind) << 4);
}
