/**
 * The questions every front end asks of a library (search, get, list, read, turn windows, title suggestions, context
 * search), with their argument checks, as functions over the library's view (view.ts).
 */
import { listDecisions, type DecisionsResponse } from './decision-list.js';
import { fileHistory, type FileHistoryQuery, type FileHistoryResponse } from './file-history.js';
import type {
  GetResponse,
  ListResponse,
  PreferencesResponse,
  ReadResponse,
  SearchOptions,
  SearchResponse,
  SessionInfo,
  TagResponse,
  TurnWindow,
  WorkspaceSummary,
} from '../contracts.js';
import { learnPreferences } from './preferences.js';
import { addNote } from './fit.js';
import { highlightRanges } from '../index/snippets.js';
import { searchContext, type ContextQuery } from './context-search.js';
import { dayRange, overlaps } from '../dates.js';
import { SessionSearchError } from '../errors.js';
import type { OutputFormat } from '../format.js';
import { parseQuery } from '../index/query.js';
import { ROLES, TURN_KINDS, type Session } from '../model.js';
import { findSession, getSession, listSessions, readDoc, sessionInfo } from './sessions.js';
import { derivedTags } from './tags.js';
import { planQuery, scanWorkspaces, searchSessions, type QueryPlan } from './search.js';
import { groupedView, type WorkspaceAnswer } from './workspaces.js';
import type { LibraryView } from './view.js';

/** The argument checks of a search, the same for every front end. */
function checkSearch(query: string, options: SearchOptions): void {
  if (typeof query !== 'string' || !query.trim())
    throw new SessionSearchError('Search query is required', 'Search query is required: give one or more words to look for.');
  if (options.role !== undefined && !ROLES.includes(options.role)) {
    throw new SessionSearchError('INVALID_ARGUMENT', `role must be one of ${ROLES.join(', ')}, got "${String(options.role)}".`);
  }
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
    throw new SessionSearchError('INVALID_ARGUMENT', `limit must be a positive whole number, got ${String(options.limit)}.`);
  }
  if (options.groupBy !== undefined && options.groupBy !== 'workspace')
    throw new SessionSearchError('INVALID_ARGUMENT', `groupBy must be "workspace", got "${String(options.groupBy)}".`);
  if (options.groupBy === 'workspace' && query.trim().length < 2)
    throw new SessionSearchError('INVALID_ARGUMENT', 'type at least 2 characters to search every workspace.');
  if (options.kind !== undefined && !TURN_KINDS.includes(options.kind)) {
    throw new SessionSearchError('INVALID_ARGUMENT', `kind must be one of ${TURN_KINDS.join(', ')}, got "${String(options.kind)}".`);
  }
}

/**
 * A search's answer with the workspace view of every session holding its words. `maxMs`: the view stops reading there
 * and says so, rather than an MCP client giving up on the whole answer.
 */
async function withWorkspaces(view: LibraryView, plan: QueryPlan, response: SearchResponse, maxMs: number | undefined): Promise<SearchResponse> {
  const answers: WorkspaceAnswer[] = [];
  const stop = new AbortController();
  const timer = maxMs === undefined ? undefined : setTimeout(() => stop.abort(), maxMs);
  if (maxMs !== undefined && maxMs <= 0) stop.abort();
  try {
    const grouped = { ...response, ...groupedView(answers, await scanWorkspaces(view, plan, (a) => answers.push(a), stop.signal)) };
    if (!stop.signal.aborted) return grouped;
    const cut =
      `The workspace view stopped after ${Math.round(maxMs! / 1000)} s, before every workspace was read: these groups are the ones read by then ` +
      '(the workspaces of the best sessions first); ask again with a project, date or source filter to read them all.';
    return { ...grouped, note: addNote(grouped.note, cut) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The answers over one view, as functions: what every front end calls (through the library that owns the view).
 * Arguments are checked here, so each front end reports the same errors.
 */
export function createAnswers(view: LibraryView) {
  const plan = (query: string, options: SearchOptions = {}): QueryPlan => {
    checkSearch(query, options);
    if (options.groupBy) throw new SessionSearchError('INVALID_ARGUMENT', 'groupBy is answered by searchGrouped (it reads every workspace).');
    return planQuery(view.index, parseQuery(query), options, dayRange(options), view.shortForms());
  };
  return {
    search(query: string, options: SearchOptions = {}): SearchResponse {
      return searchSessions(view, plan(query, options), query);
    },

    /**
     * A query parsed and expanded once (its compiled form, QueryPlan): what `searchPlan` ranks, and what the team
     * archive asks PostgreSQL for and ranks its candidates by, so that both read the same query.
     */
    plan,

    /** search_session for a plan made by `plan`; `raw` is the query as typed, shown in the answer. */
    searchPlan(planned: QueryPlan, raw: string): SearchResponse {
      return searchSessions(view, planned, raw);
    },

    /**
     * search_session with `groupBy: "workspace"`: the ranked sessions, then the workspace view of every session holding
     * the words, read a workspace at a time (other requests are answered meanwhile).
     */
    searchGrouped(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
      checkSearch(query, { ...options, groupBy: 'workspace' });
      const plan = planQuery(view.index, parseQuery(query), { ...options, groupBy: undefined }, dayRange(options), view.shortForms());
      return withWorkspaces(view, plan, searchSessions(view, plan, query), options.maxMs);
    },

    /**
     * The workspace view streamed: each workspace's group (or why it failed) to `onAnswer` as it is done, best
     * workspace first; the summary once all have answered. At least 2 characters, as the view asks.
     */
    searchWorkspaces(query: string, options: SearchOptions, onAnswer: (answer: WorkspaceAnswer) => void, signal?: AbortSignal): Promise<WorkspaceSummary> {
      checkSearch(query, { ...options, groupBy: 'workspace' });
      return scanWorkspaces(view, planQuery(view.index, parseQuery(query), options, dayRange(options), view.shortForms()), onAnswer, signal);
    },

    /** What each project's sessions settled, newest first (the search panel's Decisions). */
    decisions(options: { project?: string } = {}): DecisionsResponse {
      return listDecisions(view, options);
    },

    /** The sessions that touched a file, and with `lines` which one wrote them (file-history.ts). */
    fileHistory(query: FileHistoryQuery): FileHistoryResponse {
      if (!view.files) throw new SessionSearchError('INVALID_ARGUMENT', "file history is kept for this machine's sessions only.");
      return fileHistory(view.sessions, view.turns, view.files, query);
    },

    get(name: string, options: { format?: OutputFormat } = {}): Promise<GetResponse> {
      return getSession(view, name, options.format ?? 'auto');
    },

    list(
      options: Pick<SearchOptions, 'date' | 'dateFrom' | 'dateTo' | 'limit' | 'source' | 'project' | 'projectScope' | 'branch' | 'tags' | 'allTags'> & {
        format?: OutputFormat;
      } = {},
    ): ListResponse {
      const range = dayRange(options);
      return listSessions(view, options, (s) => overlaps(range, s.firstDay, s.lastDay));
    },

    /** What a listing says of one session, found by any of its names (as get finds it), without its turns. */
    info(name: string): SessionInfo {
      return sessionInfo(findSession(view, name).session);
    },

    read(docid: string, offset = 0): ReadResponse {
      return readDoc(view, docid, offset);
    },

    /** Turns `from`..`to` (exclusive) of a session, for a reader that shows a window around a hit; `query`'s matches marked. */
    turnWindow(id: string, from: number, to: number, query = ''): TurnWindow | undefined {
      const s = view.sessions.get(id);
      if (!s) return undefined;
      const start = Math.max(0, Math.floor(from));
      const all = view.turns.all(s);
      const turns = all.slice(start, Math.max(start, Math.floor(to)));
      const matcher = planQuery(view.index, parseQuery(query), {}, {}).matcher;
      const notes: string[] = [];
      if (s.sourceDeleted) notes.push(`The tool deleted this transcript (${s.file}); this copy is from the archive, and the tool cannot reopen it.`);
      if (s.parentId) notes.push(`A sub-agent of “${view.sessions.get(s.parentId)?.topic ?? s.parentId}”.`);
      const children = [...view.sessions.values()].filter((c) => c.parentId === id).length;
      if (children) notes.push(`It started ${children} sub-agent${children === 1 ? '' : 's'} (nested under it in the Sessions view).`);
      return { turns, highlights: turns.map((t) => (matcher ? highlightRanges(t.text, matcher) : [])), total: all.length, ...(notes.length ? { notes } : {}) };
    },

    /** Sessions whose title words start with what was typed: for search-as-you-type. */
    suggestTitles(prefix: string, limit = 20): Session[] {
      return view
        .titles()
        .search(prefix, limit)
        .map((id) => view.sessions.get(id)!)
        .filter(Boolean);
    },

    /** Adds tags a person gives a session (found by id, native id or file name); bad tags are refused, none added. */
    async tag(name: string, tags: readonly string[]): Promise<TagResponse> {
      const { session } = findSession(view, name);
      if (!Array.isArray(tags) || !tags.length) throw new SessionSearchError('INVALID_ARGUMENT', 'give at least one tag.');
      return { success: true, id: session.id, tags: await view.tags.add(session.id, tags), derived: derivedTags(session, view.turns) };
    },

    /** Removes tags a person gave a session (tags it does not carry are ignored; derived tags cannot be removed). */
    async untag(name: string, tags: readonly string[]): Promise<TagResponse> {
      const { session } = findSession(view, name);
      if (!Array.isArray(tags) || !tags.length) throw new SessionSearchError('INVALID_ARGUMENT', 'give at least one tag.');
      return { success: true, id: session.id, tags: await view.tags.remove(session.id, tags), derived: derivedTags(session, view.turns) };
    },

    /** What the sessions show about how the person likes to work (only one project's with `project`). */
    preferences(options: { project?: string } = {}): PreferencesResponse {
      return learnPreferences(view, options);
    },

    /** Sets preferences by hand (merged; null or "" clears one) and answers them all, as get_preferences would. */
    async updatePreferences(changes: Record<string, unknown>): Promise<PreferencesResponse & { updated: true }> {
      await view.preferences.update(changes);
      return { updated: true, ...learnPreferences(view) };
    },

    /** The tags a person gave one session. */
    userTagsOf(id: string): string[] {
      return [...view.tags.of(id)];
    },

    /** The tags people gave, with how many sessions carry each, most used first. */
    userTags(): { tag: string; sessions: number }[] {
      return [...view.tags.counts()].map(([tag, sessions]) => ({ tag, sessions })).sort((a, b) => b.sessions - a.sessions || a.tag.localeCompare(b.tag));
    },

    /** search_context; a query already planned (`plan`: the one the team archive is asked with too) is not parsed again. */
    searchContext(query: string | QueryPlan, options: ContextQuery & { dateFrom?: string; dateTo?: string }) {
      if (typeof query === 'string' ? !query.trim() : typeof query !== 'object' || query === null)
        throw new SessionSearchError('Search query is required', 'Search query is required: describe what to look for.');
      return searchContext(view, typeof query === 'string' ? parseQuery(query) : query, dayRange(options), options);
    },
  };
}

export type Answers = ReturnType<typeof createAnswers>;
