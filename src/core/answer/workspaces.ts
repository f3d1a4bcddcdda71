/**
 * The archive's search view (seed archive_search): matches grouped by workspace (a repository and its worktree), each
 * hit an exchange (the person's message and the reply it got, several hits in one exchange shown once), the top 50
 * per workspace with the full count of matching turns, and how many workspaces were searched. Each workspace answers
 * on its own: `streamWorkspaces` hands each one over as it is done (the panel shows them as they arrive), and a
 * workspace whose stored turns cannot be read fails alone, is counted, and is tried again by the next search (its
 * transcripts are read again meanwhile).
 */
import { basename } from 'node:path';
import type { FailedWorkspace, WorkspaceGroup, WorkspaceSummary } from '../contracts.js';
import { highlightRanges } from '../index/snippets.js';
import type { Session, Turn } from '../model.js';
import type { TurnStore } from '../store/turn-store.js';
import { parsedTurns, rawScanTurns, type ScanTurns } from '../store/scan-turns.js';
import type { LibraryView } from './view.js';

export const HITS_PER_WORKSPACE = 50;
const EXCHANGE_CHARS = 600;
/** A streamed search gives the event loop back this often (ms), so other requests are answered meanwhile. */
const SLICE_MS = 15;

/** The sessions of one workspace that match, best first. */
export interface Workspace {
  project: string;
  worktree: string;
  name: string;
  sessions: Session[];
}

export type WorkspaceAnswer = { group: WorkspaceGroup } | { failed: FailedWorkspace };

/** The exchange a turn belongs to: the person's message before it (or itself) and the first reply after that. */
function exchange(turns: ScanTurns, at: number): { user?: number; reply?: number; key: number } {
  const prompt = (i: number): boolean => turns.role(i) === 'user' && turns.kind(i) === 'conversation';
  let start = at;
  while (start > 0 && !prompt(start)) start--;
  const user = prompt(start) ? start : undefined;
  let reply: number | undefined;
  for (let i = start + 1; i < turns.count; i++) {
    if (prompt(i)) break;
    if (turns.role(i) === 'assistant' && turns.kind(i) === 'conversation') {
      reply = i;
      break;
    }
  }
  return { user, reply: reply ?? (at === user ? undefined : at), key: start };
}

const EXCERPT_CHARS = 240;

/** Some text of `text` around its first match, cut at line ends where it can be. */
function excerpt(text: string, matcher: RegExp): string {
  matcher.lastIndex = 0;
  const at = matcher.exec(text)?.index ?? 0;
  let from = Math.max(0, at - EXCERPT_CHARS / 2);
  const lineStart = text.lastIndexOf('\n', at);
  if (lineStart >= from) from = lineStart + 1;
  const end = Math.min(text.length, from + EXCERPT_CHARS);
  return `${from > 0 ? '…' : ''}${text.slice(from, end)}${end < text.length ? '…' : ''}`;
}

/** The lines of a tool output, file read or thinking turn that hold the match, marked. */
function showMatch(hit: WorkspaceGroup['hits'][number], t: Turn, matcher: RegExp): void {
  hit.match = excerpt(t.text, matcher);
  hit.matchKind = t.kind;
  hit.matchHighlights = highlightRanges(hit.match, matcher);
}

const cut = (text: string | undefined): string => (text === undefined ? '' : text.length > EXCHANGE_CHARS ? `${text.slice(0, EXCHANGE_CHARS)}…` : text);

function workspaceKey(lib: LibraryView, s: Session): { project: string; worktree: string } {
  const worktree = s.project ?? '';
  return { project: worktree ? lib.worktrees.rootOf(worktree) : '', worktree };
}

/** How many workspaces hold these sessions. */
export function countWorkspaces(lib: LibraryView, sessions: Iterable<Session>): number {
  const keys = new Set<string>();
  for (const s of sessions) {
    const k = workspaceKey(lib, s);
    keys.add(`${k.project}\u0000${k.worktree}`);
  }
  return keys.size;
}

/** Sessions grouped by workspace, in the order their first session comes (best first for ranked sessions). */
function workspacesOf(lib: LibraryView, sessions: Iterable<Session>): Workspace[] {
  const groups = new Map<string, Workspace>();
  for (const s of sessions) {
    const k = workspaceKey(lib, s);
    const id = `${k.project}\u0000${k.worktree}`;
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { ...k, name: basename(k.worktree) || '(no project)', sessions: [] }));
    group.sessions.push(s);
  }
  return [...groups.values()];
}

/** What the view looks for: the matcher, and the needles a match holds (matcherNeedles; none: every turn is read). */
export interface WorkspaceLook {
  matcher: RegExp | undefined;
  needles?: readonly string[];
}

/** A session's turns for the scan: from its archive line where it has a layout, else parsed; a reason where unreadable. */
function turnsOf(s: Session, look: WorkspaceLook, store: TurnStore): ScanTurns | string {
  const raw = store.raw(s);
  if (raw) {
    try {
      const turns = rawScanTurns(raw, s.id, look.needles);
      if (turns) return turns;
    } finally {
      raw.close();
    }
  }
  const turns = store.scan(s);
  return typeof turns === 'string' ? turns : parsedTurns(turns);
}

type Hit = WorkspaceGroup['hits'][number];

/**
 * One session's matching turns: how many, and its exchanges to show (up to `room`). Undefined where a turn it needed
 * could not be read from its archive line (damaged): the session is read whole instead.
 */
function scanSession(s: Session, turns: ScanTurns, matcher: RegExp, room: number): { count: number; hits: Hit[] } | undefined {
  const shown = new Map<number, Hit>();
  const hits: Hit[] = [];
  let count = 0;
  for (let i = 0; i < turns.count; i++) {
    if (!turns.mayHold(i)) continue;
    const t = turns.turn(i);
    if (!t) return undefined;
    matcher.lastIndex = 0;
    if (!matcher.test(t.text)) continue;
    count++;
    const ex = exchange(turns, i);
    const seen = shown.get(ex.key);
    // the words matched in a tool output, a file read or thinking: the exchange shows the line that holds them, even
    // when the prompt or the reply holds a query word too (else another word's highlight stands for this match)
    if (seen) {
      if (!seen.match && t.kind !== 'conversation') showMatch(seen, t, matcher);
      continue;
    }
    if (hits.length >= room) continue;
    const userTurn = ex.user === undefined ? undefined : turns.turn(ex.user);
    const replyTurn = ex.reply === undefined ? undefined : turns.turn(ex.reply);
    if ((ex.user !== undefined && !userTurn) || (ex.reply !== undefined && !replyTurn)) return undefined;
    const user = cut(userTurn?.text);
    const reply = cut(replyTurn?.text);
    const hit: Hit = {
      sessionId: s.id,
      topic: s.topic,
      turnId: t.id,
      date: t.timestamp ?? s.updated,
      user,
      reply,
      userHighlights: highlightRanges(user, matcher),
      replyHighlights: highlightRanges(reply, matcher),
    };
    shown.set(ex.key, hit);
    if (t.kind !== 'conversation') showMatch(hit, t, matcher);
    hits.push(hit);
  }
  return { count, hits };
}

/** Scans one workspace's sessions for matching turns; yields after each session, so a caller can pause between them. */
function* scanWorkspace(ws: Workspace, look: WorkspaceLook, store: TurnStore): Generator<void, WorkspaceAnswer> {
  const group: WorkspaceGroup = { project: ws.project, worktree: ws.worktree, name: ws.name, count: 0, hits: [] };
  const unreadable: string[] = [];
  const { matcher } = look;
  for (const s of ws.sessions) {
    if (!matcher) continue;
    const room = HITS_PER_WORKSPACE - group.hits.length;
    let turns = turnsOf(s, look, store);
    let found = typeof turns === 'string' ? undefined : scanSession(s, turns, matcher, room);
    // a turn of its archive line did not read back: the session read whole (which finds the damage and says so)
    if (typeof turns !== 'string' && !found) {
      const all = store.scan(s);
      turns = typeof all === 'string' ? all : parsedTurns(all);
      found = typeof turns === 'string' ? undefined : scanSession(s, turns, matcher, room);
    }
    if (typeof turns === 'string') {
      unreadable.push(turns);
      continue;
    }
    if (found) {
      group.count += found.count;
      group.hits.push(...found.hits);
    }
    yield;
  }
  if (!unreadable.length) return { group };
  const n = unreadable.length;
  const reason = `${n} of its sessions could not be read (${unreadable[0]}); ${n === 1 ? 'it is' : 'they are'} being read again from the transcript: search again to retry`;
  return { failed: { project: ws.project, worktree: ws.worktree, name: ws.name, reason } };
}

function summarise(answers: WorkspaceAnswer[], searched: number): WorkspaceSummary {
  const groups = answers.flatMap((a) => ('group' in a && a.group.count > 0 ? [a.group] : []));
  return {
    workspacesSearched: searched,
    workspacesMatched: groups.length,
    workspacesFailed: answers.filter((a) => 'failed' in a).length,
    turnsMatched: groups.reduce((n, g) => n + g.count, 0),
  };
}

/** The whole view from every workspace's answer (MCP `groupBy: "workspace"`): groups with matches, most matches first. */
export function groupedView(
  answers: readonly WorkspaceAnswer[],
  summary: WorkspaceSummary,
): { workspaces: WorkspaceGroup[]; workspacesSearched: number; turnsMatched: number; failedWorkspaces?: FailedWorkspace[] } {
  const workspaces = answers
    .flatMap((a) => ('group' in a && a.group.count > 0 ? [a.group] : []))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  const failed = answers.flatMap((a) => ('failed' in a ? [a.failed] : []));
  return {
    workspaces,
    workspacesSearched: summary.workspacesSearched,
    turnsMatched: summary.turnsMatched,
    ...(failed.length ? { failedWorkspaces: failed } : {}),
  };
}

/**
 * The view one workspace at a time, best workspace first: `onAnswer` gets each (its group, or why it failed) as soon as
 * it is done; between sessions the event loop is given back every SLICE_MS. Stops early, answering what was done,
 * once `signal` aborts (a newer search replaced this one).
 */
export async function streamWorkspaces(
  lib: LibraryView,
  ranked: readonly Session[],
  look: WorkspaceLook,
  searched: number,
  onAnswer: (answer: WorkspaceAnswer) => void,
  signal?: AbortSignal,
): Promise<WorkspaceSummary> {
  const answers: WorkspaceAnswer[] = [];
  let slice = performance.now();
  for (const ws of workspacesOf(lib, ranked)) {
    const scan = scanWorkspace(ws, look, lib.turns);
    let step = scan.next();
    while (!step.done) {
      if (performance.now() - slice > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      if (signal?.aborted) return summarise(answers, searched);
      step = scan.next();
    }
    answers.push(step.value);
    if (!('group' in step.value) || step.value.group.count > 0) onAnswer(step.value);
  }
  return summarise(answers, searched);
}
