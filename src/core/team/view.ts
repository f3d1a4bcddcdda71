/**
 * Team sessions as a small library view of their own, so that the answers the local library gives (ranking,
 * snippets with their ranges, get, read) are given the same way over sessions fetched from the team archive.
 */
import { ShortForms } from '../index/short-forms.js';
import { SearchIndex } from '../index/engine.js';
import { TitleIndex } from '../index/title-index.js';
import { WorktreeRoots } from '../answer/worktrees.js';
import { SemanticIndex } from '../semantic/semantic-index.js';
import { TagStore } from '../store/tags.js';
import { PreferenceStore } from '../store/preferences.js';
import { silentLogger } from '../log.js';
import type { LibraryView } from '../answer/view.js';
import type { Role, Session, SourceId, Turn, TurnKind } from '../model.js';

export { TEAM_PREFIX, isTeamId } from './id.js';
import { TEAM_PREFIX } from './id.js';
import { TurnStore } from '../store/turn-store.js';

/** The id a team session goes by here: owner, machine and its id on that machine. */
export function teamId(owner: string, machine: string, id: string): string {
  return `${TEAM_PREFIX}${owner}:${machine}:${id}`;
}

/**
 * The owner, machine and local id a team id names. A local id may itself hold `#` (aider's `chat-history.md#46`), so
 * a trailing `#<n>` is given apart as `turn` only as a second reading: `id` is the whole rest, `bare` the rest without it.
 */
export function parseTeamId(name: string): { owner: string; machine: string; id: string; bare?: string } | undefined {
  const m = /^team:([^:]+):([^:]+):(.+)$/.exec(name);
  if (!m) return undefined;
  const turn = /^(.+)#\d+$/.exec(m[3]);
  return { owner: m[1], machine: m[2], id: m[3], ...(turn ? { bare: turn[1] } : {}) };
}

/** A session row of the team archive (the columns every query selects). */
export interface SessionRow {
  owner: string;
  machine: string;
  id: string;
  source: string;
  project_path: string | null;
  branch: string | null;
  title: string;
  created: Date | null;
  updated: Date | null;
  first_day: string | null;
  last_day: string | null;
  turn_count: number;
}

/** The columns of a SessionRow, from the sessions table under `alias`. */
export function sessionColumns(alias = 'sessions'): string {
  const c = (name: string): string => `${alias}.${name}`;
  return `${c('owner')}::text AS owner, ${c('machine')} AS machine, ${c('id')} AS id, ${c('source')} AS source, ${c('project_path')} AS project_path,
  ${c('branch')} AS branch, ${c('title')} AS title, ${c('created')} AS created, ${c('updated')} AS updated,
  to_char(${c('first_day')}, 'YYYY-MM-DD') AS first_day, to_char(${c('last_day')}, 'YYYY-MM-DD') AS last_day, ${c('turn_count')} AS turn_count`;
}

export interface TurnRow {
  idx: number;
  role: string;
  kind: string;
  tool: string | null;
  at: string | null;
  text: string;
}

export function rowTurn(key: string, row: TurnRow): Turn {
  const turn: Turn = { id: `${key}#${row.idx}`, role: row.role as Role, kind: row.kind as TurnKind, text: row.text };
  if (row.at) turn.timestamp = row.at;
  if (row.tool) turn.tool = row.tool;
  return turn;
}

/** A Session built from a row; `turns` are given (whole, for get/read; the ranked text, for search). */
export function rowSession(row: SessionRow, turns: (key: string) => Turn[]): Session {
  const key = teamId(row.owner, row.machine, row.id);
  const created = row.created?.toISOString() ?? '';
  const updated = row.updated?.toISOString() ?? created;
  const session: Session = {
    id: key,
    source: row.source as SourceId,
    nativeId: row.id.slice(row.id.indexOf(':') + 1),
    topic: row.title,
    filename: `${row.owner}@${row.machine}`,
    file: '',
    size: 0,
    created,
    updated,
    firstDay: row.first_day ?? created.slice(0, 10),
    lastDay: row.last_day ?? updated.slice(0, 10),
    turns: turns(key),
  };
  if (row.project_path) session.project = row.project_path;
  if (row.branch) session.branch = row.branch;
  return session;
}

/** How common words are across a whole archive (the local index): what candidates are ranked with. */
export interface GlobalStats {
  size: number;
  docFrequency(term: string): number;
}

/** BM25's idf with the archive's counts; a word the archive lacks counts as held by the candidates holding it. */
function globalIdf(stats: GlobalStats, term: string, candidates: number): number {
  const n = stats.size + candidates;
  const df = Math.max(stats.docFrequency(term), candidates, 1);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * A view over a few team sessions (no data folder, no vectors: team results are ranked lexically). With `stats`, a
 * word is weighted by how common it is across them (a word every candidate holds may still be rare), else among the
 * candidates only.
 */
export function teamView(sessions: Session[], fields: (s: Session) => { content: string[]; messages: string[] }, stats?: GlobalStats): LibraryView {
  const index = new SearchIndex();
  const map = new Map<string, Session>();
  for (const s of sessions) {
    map.set(s.id, s);
    index.add(s.id, { topic: s.topic, ...fields(s) }, Date.parse(s.updated) || 0);
  }
  let titles: TitleIndex | undefined;
  let forms: ShortForms | undefined;
  return {
    sessions: map,
    turns: new TurnStore(silentLogger),
    index,
    roots: [],
    worktrees: new WorktreeRoots(),
    semantic: new SemanticIndex(silentLogger, 2_000, false),
    titles() {
      if (!titles) {
        titles = new TitleIndex();
        for (const s of sessions) titles.add(s.id, s.topic);
      }
      return titles;
    },
    shortForms: () => (forms ??= new ShortForms(sessions.flatMap((s) => s.acronyms ?? []))),
    decisionsOf: (s) => s.decisions,
    preferencesOf: (s) => s.preferences,
    tags: new TagStore(undefined),
    preferences: new PreferenceStore(undefined),
    ...(stats ? { idf: (term: string) => globalIdf(stats, term, index.docFrequency(term)) } : {}),
  };
}
