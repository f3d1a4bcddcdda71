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
function exchange(turns: readonly Turn[], at: number): { user?: Turn; reply?: Turn; key: number } {
  let start = at;
  while (start > 0 && !(turns[start].role === 'user' && turns[start].kind === 'conversation')) start--;
  const user = turns[start].role === 'user' && turns[start].kind === 'conversation' ? turns[start] : undefined;
  let reply: Turn | undefined;
  for (let i = start + 1; i < turns.length; i++) {
    if (turns[i].role === 'user' && turns[i].kind === 'conversation') break;
    if (turns[i].role === 'assistant' && turns[i].kind === 'conversation') {
      reply = turns[i];
      break;
    }
  }
  return { user, reply: reply ?? (turns[at] === user ? undefined : turns[at]), key: start };
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

/** Scans one workspace's sessions for matching turns; yields after each session, so a caller can pause between them. */
function* scanWorkspace(ws: Workspace, matcher: RegExp | undefined, store: TurnStore): Generator<void, WorkspaceAnswer> {
  const group: WorkspaceGroup = { project: ws.project, worktree: ws.worktree, name: ws.name, count: 0, hits: [] };
  const unreadable: string[] = [];
  for (const s of ws.sessions) {
    const turns = matcher ? store.scan(s) : [];
    if (typeof turns === 'string') {
      unreadable.push(turns);
      continue;
    }
    const shown = new Map<number, WorkspaceGroup['hits'][number]>();
    turns.forEach((t, i) => {
      matcher!.lastIndex = 0;
      if (!matcher!.test(t.text)) return;
      group.count++;
      const ex = exchange(turns, i);
      const seen = shown.get(ex.key);
      // the words matched in a tool output, a file read or thinking: the exchange shows the line that holds them, even
      // when the prompt or the reply holds a query word too (else another word's highlight stands for this match)
      if (seen) {
        if (!seen.match && t.kind !== 'conversation') showMatch(seen, t, matcher!);
        return;
      }
      if (group.hits.length >= HITS_PER_WORKSPACE) return;
      const user = cut(ex.user?.text);
      const reply = cut(ex.reply?.text);
      const hit: WorkspaceGroup['hits'][number] = {
        sessionId: s.id,
        topic: s.topic,
        turnId: t.id,
        date: t.timestamp ?? s.updated,
        user,
        reply,
        userHighlights: highlightRanges(user, matcher!),
        replyHighlights: highlightRanges(reply, matcher!),
      };
      shown.set(ex.key, hit);
      if (t.kind !== 'conversation') showMatch(hit, t, matcher!);
      group.hits.push(hit);
    });
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
  matcher: RegExp | undefined,
  searched: number,
  onAnswer: (answer: WorkspaceAnswer) => void,
  signal?: AbortSignal,
): Promise<WorkspaceSummary> {
  const answers: WorkspaceAnswer[] = [];
  let slice = performance.now();
  for (const ws of workspacesOf(lib, ranked)) {
    const scan = scanWorkspace(ws, matcher, lib.turns);
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
