/**
 * The search panel's Decisions: what each project's sessions settled, newest first, each with its turn; a decision a
 * later one of the same project replaces says so, below it: the later one turned down what it took ("use PostgreSQL
 * instead of MongoDB" after "let's use MongoDB"), or turned down the same thing for something else.
 */
import type { LibraryView } from './view.js';
import { decisionChoice } from '../ingest/decisions.js';

export interface ListedDecision {
  text: string;
  /** The turn's docid (the reader opens at it). */
  turn: string;
  sessionId: string;
  topic: string;
  date: string;
  source: string;
  /** The later decision of the same project that settled the same subject again. */
  replacedBy?: string;
}

export interface DecisionsResponse {
  projects: { project: string; decisions: ListedDecision[] }[];
}

const PER_PROJECT = 30;
const PROJECTS = 20;

export function listDecisions(lib: LibraryView, options: { project?: string } = {}): DecisionsResponse {
  const byProject = new Map<string, ListedDecision[]>();
  const sessions = [...lib.sessions.values()]
    .filter((s) => lib.decisionsOf(s)?.length && (!options.project || lib.worktrees.inProject(s.project, options.project)))
    .sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
  for (const s of sessions) {
    const project = s.project ? lib.worktrees.rootOf(s.project) : '';
    const list = byProject.get(project) ?? [];
    if (!byProject.has(project)) byProject.set(project, list);
    if (list.length >= PER_PROJECT) continue;
    // a session's own decisions newest first too: the later turns below the earlier ones are read first
    for (const entry of [...(lib.decisionsOf(s) ?? [])].reverse()) {
      const tab = entry.indexOf('\t');
      const turn = Number(entry.slice(0, tab));
      const text = entry.slice(tab + 1);
      list.push({ text, turn: `${s.id}#${turn}`, sessionId: s.id, topic: s.topic, date: s.updated, source: s.source });
      if (list.length >= PER_PROJECT) break;
    }
  }
  const projects = [...byProject].slice(0, PROJECTS).map(([project, decisions]) => {
    // newest first: each one looks up for a later decision that turned down what it took, or the same alternative
    const choices = decisions.map((d) => decisionChoice(d.text));
    const meets = (a: Set<string>, b: Set<string>): boolean => [...a].some((x) => b.has(x));
    decisions.forEach((d, i) => {
      for (let newer = i - 1; newer >= 0; newer--) {
        // (said again in the same conversation is the same decision, not a later one)
        if (decisions[newer].sessionId === d.sessionId) continue;
        const later = choices[newer];
        if (meets(choices[i].took, later.refused) || (meets(choices[i].refused, later.refused) && !meets(choices[i].took, later.took))) {
          d.replacedBy = decisions[newer].turn;
          break;
        }
      }
    });
    return { project, decisions };
  });
  return { projects };
}
