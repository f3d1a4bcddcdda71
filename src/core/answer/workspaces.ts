/**
 * The archive's search view (seed archive_search): matches grouped by workspace (a repository and its worktree), each
 * hit an exchange (the person's message and the reply it got, several hits in one exchange shown once), the top 50
 * per workspace with the full count of matching turns, and how many workspaces were searched.
 */
import { basename } from 'node:path';
import type { WorkspaceGroup } from '../contracts.js';
import { highlightRanges } from '../index/snippets.js';
import type { Session, Turn } from '../model.js';
import type { LibraryView } from './view.js';

export const HITS_PER_WORKSPACE = 50;
const EXCHANGE_CHARS = 600;

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

const cut = (text: string | undefined): string => (text === undefined ? '' : text.length > EXCHANGE_CHARS ? `${text.slice(0, EXCHANGE_CHARS)}…` : text);

export function workspaceGroups(
  lib: LibraryView,
  sessions: readonly Session[],
  matcher: RegExp | undefined,
  searched: Iterable<Session>,
): { workspaces: WorkspaceGroup[]; workspacesSearched: number; turnsMatched: number } {
  const key = (s: Session): { project: string; worktree: string } => {
    const worktree = s.project ?? '';
    return { project: worktree ? lib.worktrees.rootOf(worktree) : '', worktree };
  };
  const searchedKeys = new Set<string>();
  for (const s of searched) {
    const k = key(s);
    searchedKeys.add(`${k.project}\u0000${k.worktree}`);
  }
  const groups = new Map<string, WorkspaceGroup>();
  let turnsMatched = 0;
  for (const s of sessions) {
    const k = key(s);
    const id = `${k.project}\u0000${k.worktree}`;
    let group = groups.get(id);
    if (!group) {
      group = { project: k.project, worktree: k.worktree, name: basename(k.worktree) || '(no project)', count: 0, hits: [] };
      groups.set(id, group);
    }
    const turns = s.turns;
    const shown = new Set<number>();
    turns.forEach((t, i) => {
      if (!matcher) return;
      matcher.lastIndex = 0;
      if (!matcher.test(t.text)) return;
      turnsMatched++;
      group.count++;
      const ex = exchange(turns, i);
      if (shown.has(ex.key) || group.hits.length >= HITS_PER_WORKSPACE) return;
      shown.add(ex.key);
      const user = cut(ex.user?.text);
      const reply = cut(ex.reply?.text);
      group.hits.push({
        sessionId: s.id,
        topic: s.topic,
        turnId: t.id,
        date: t.timestamp ?? s.updated,
        user,
        reply,
        userHighlights: highlightRanges(user, matcher),
        replyHighlights: highlightRanges(reply, matcher),
      });
    });
  }
  const workspaces = [...groups.values()].filter((g) => g.count > 0).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return { workspaces, workspacesSearched: searchedKeys.size, turnsMatched };
}
