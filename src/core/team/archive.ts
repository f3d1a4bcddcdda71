/**
 * The team archive beside the local one: what the CLI (`--team`), the MCP server and the index server use when a
 * team database is configured. Searches answer over both (one's own sessions pushed from this machine show once, as
 * the local result); when the database cannot be reached the local results come back with a notice saying so.
 * Team sessions are read by their `team:<owner>:<machine>:<id>` ids.
 */
import { hostname } from 'node:os';
import type { ContextResponse, GetResponse, ReadResponse, SearchOptions, SearchResponse, SearchResult, SessionInfo, TurnWindow } from '../contracts.js';
import type { ContextQuery } from '../answer/context-search.js';
import type { Session } from '../model.js';
import { indexedFields } from '../library/catalog.js';
import { SessionSearchError } from '../errors.js';
import type { OutputFormat } from '../format.js';
import { createAnswers } from '../answer/answers.js';
import type { LibraryView } from '../answer/view.js';
import { SCHEMA } from './schema.js';
import { TeamDatabase, teamErrorMessage, type TeamOptions } from './connection.js';
import { searchTeam } from './search.js';
import type { QueryPlan } from '../answer/search.js';
import { parseTeamId, type GlobalStats, rowSession, rowTurn, sessionColumns, teamView, type SessionRow, type TurnRow } from './view.js';

/** This machine's name in the team archive: SESSION_SEARCH_MACHINE, else the host name. */
export function machineName(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return (flag ?? env.SESSION_SEARCH_MACHINE ?? hostname()).trim() || 'localhost';
}

export { isTeamId } from './view.js';

/**
 * Local and team results in one answer, by relevance (local first on ties), one's own sessions from this machine once.
 * Where the team's archive found sessions, `matched` goes: it counts only the local ones.
 */
export function mergeAnswer(local: SearchResponse, team: SearchResult[], self: { role: string; machine: string }, limit: number | undefined): SearchResponse {
  const others = team.filter((r) => !(r.owner === self.role && r.machine === self.machine));
  const tagged = [...local.results.map((r, i) => ({ r, i, team: 0 })), ...others.map((r, i) => ({ r, i, team: 1 }))];
  tagged.sort((a, b) => b.r.relevanceScore - a.r.relevanceScore || a.team - b.team || a.i - b.i);
  const results = tagged.slice(0, limit ?? Infinity).map((t) => t.r);
  const { matched, ...rest } = local;
  return { ...rest, results, count: results.length, ...(matched !== undefined && !others.length ? { matched } : {}) };
}

const VIEW_TTL_MS = 30_000;
/** Team sessions read whole for search_context. */
const CONTEXT_SESSIONS = 5;

export class TeamArchive {
  readonly db: TeamDatabase;

  constructor(
    url: string,
    readonly machine: string,
    options: TeamOptions = {},
  ) {
    this.db = new TeamDatabase(url, options);
  }

  /**
   * The local answer with the team's results merged in, or with a notice when the team archive could not answer.
   * `vocabulary`: the local index, for the query words' other forms and near spellings.
   */
  async search(local: SearchResponse, plan: QueryPlan, options: SearchOptions, stats?: GlobalStats): Promise<SearchResponse> {
    try {
      const role = await this.db.role();
      const team = await searchTeam(this.db, plan, { ...options, limit: options.limit ?? 10 }, stats);
      return mergeAnswer(local, team, { role, machine: this.machine }, options.limit ?? Math.max(10, local.results.length));
    } catch (err) {
      return { ...local, teamNotice: `${teamErrorMessage(err, this.db.url)}; these are local results only` };
    }
  }

  /** The last session read, for a reader paging through it (Show earlier / later), kept briefly. */
  private last: { name: string; at: number; view: Promise<{ view: LibraryView; key: string }> } | undefined;

  /**
   * search_context over both archives: the team sessions that best answer the query (at most 5, each read whole)
   * give their blocks, scored as local blocks are, merged with the local ones by score.
   */
  async searchContext(
    local: ContextResponse,
    plan: QueryPlan,
    options: ContextQuery & { dateFrom?: string; dateTo?: string },
    stats?: GlobalStats,
  ): Promise<ContextResponse> {
    if (options.sessions?.length) return local;
    try {
      const role = await this.db.role();
      const hits = (
        await searchTeam(
          this.db,
          plan,
          { limit: CONTEXT_SESSIONS, source: options.source, project: options.project, dateFrom: options.dateFrom, dateTo: options.dateTo },
          stats,
        )
      ).filter((r) => !(r.owner === role && r.machine === this.machine));
      const sessions: Session[] = [];
      for (const hit of hits) sessions.push(...(await this.view(hit.id)).view.sessions.values());
      if (!sessions.length) return local;
      const view = teamView(sessions, (s) => indexedFields(s.turns ?? []), stats); // (a team session holds its turns)
      const team = createAnswers(view).searchContext(plan, { ...options, project: undefined, mode: 'lexical' });
      const results = [...local.results, ...team.results].sort((a, b) => b.score - a.score).slice(0, options.limit);
      return { ...local, results, totalMatches: local.totalMatches + team.totalMatches };
    } catch (err) {
      return { ...local, teamNotice: `${teamErrorMessage(err, this.db.url)}; these are local results only` };
    }
  }

  /** The newest team sessions this role may read (not its own from this machine), for the Sessions tree. */
  async recent(limit = 200): Promise<(SessionInfo & { updated: string; nativeId: string; branch?: string; owner: string; machine: string })[]> {
    const role = await this.db.role();
    const rows = await this.db.withClient(
      async (client) =>
        (
          await client.query<SessionRow>(
            `SELECT ${sessionColumns()} FROM ${SCHEMA}.sessions WHERE NOT (owner = $1 AND machine = $2) ORDER BY updated DESC NULLS LAST LIMIT $3`,
            [role, this.machine, limit],
          )
        ).rows,
    );
    return rows.map((row) => {
      const s = rowSession(row, () => []);
      return {
        id: s.id,
        source: s.source,
        filename: s.filename,
        topic: s.topic,
        date: s.created,
        updated: s.updated,
        file: '',
        size: 0,
        turns: row.turn_count,
        nativeId: s.nativeId,
        ...(s.project ? { project: s.project } : {}),
        ...(s.branch ? { branch: s.branch } : {}),
        owner: row.owner,
        machine: row.machine,
      };
    });
  }

  /** The team session a name (a session id, or a turn's docid) is about, with every turn, as a view answers read. */
  private view(name: string): Promise<{ view: LibraryView; key: string }> {
    if (this.last?.name === name && Date.now() - this.last.at < VIEW_TTL_MS) return this.last.view;
    const view = this.fetchView(name);
    this.last = { name, at: Date.now(), view };
    view.catch(() => (this.last = undefined));
    return view;
  }

  private async fetchView(name: string): Promise<{ view: LibraryView; key: string }> {
    const ref = parseTeamId(name);
    if (!ref) throw new SessionSearchError('FILE_NOT_FOUND', `"${name}" is not a team session id (team:<owner>:<machine>:<id>).`);
    try {
      await this.db.role();
      const session = await this.db.withClient(async (client) => {
        // the whole name as a session id first, then without a trailing #<turn>
        const found = await client.query<SessionRow>(
          `SELECT ${sessionColumns()} FROM ${SCHEMA}.sessions WHERE owner = $1 AND machine = $2 AND id IN ($3, $4) ORDER BY id = $3 DESC LIMIT 1`,
          [ref.owner, ref.machine, ref.id, ref.bare ?? ref.id],
        );
        if (!found.rows.length) return undefined;
        const turns = await client.query<TurnRow>(
          `SELECT idx, role, kind, tool, at, text FROM ${SCHEMA}.turns WHERE owner = $1 AND machine = $2 AND session_id = $3 ORDER BY idx`,
          [ref.owner, ref.machine, found.rows[0].id],
        );
        return rowSession(found.rows[0], (key) => turns.rows.map((row) => rowTurn(key, row)));
      });
      // not there, or not shared with this role: the same answer, so that nothing is learned about what is hidden
      if (!session) throw new SessionSearchError('FILE_NOT_FOUND', `No team session "${name}" that you may read.`);
      session.sourceDeleted = true;
      return { view: teamView([session], () => ({ content: [], messages: [] })), key: session.id };
    } catch (err) {
      if (err instanceof SessionSearchError) throw err;
      throw new SessionSearchError('READ_ERROR', teamErrorMessage(err, this.db.url));
    }
  }

  async get(name: string, format: OutputFormat = 'auto'): Promise<GetResponse> {
    const { view, key } = await this.view(name);
    const response = await createAnswers(view).get(key, { format });
    delete response.session.resumeCommand;
    return response;
  }

  async read(docid: string, offset = 0): Promise<ReadResponse> {
    return createAnswers((await this.view(docid)).view).read(docid, offset);
  }

  /** Turns `from`..`to` of a team session, for the reader's window around a hit. */
  async turnWindow(id: string, from: number, to: number, query = ''): Promise<TurnWindow | undefined> {
    const { view, key } = await this.view(id);
    return createAnswers(view).turnWindow(key, from, to, query);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
