/**
 * Search over the team archive: PostgreSQL full-text search (the stored `tsvector`, weighted like our fields: title A,
 * conversation B, the rest D; the GIN index used through `session_search.match`, see schema.ts) finds the sessions
 * the role may read that hold a query word, ranked by `ts_rank` over a small head of each (the title and the start of the conversation and of the rest: ranking thousands of matches
 * over whole documents read hundreds of MB per query); our own BM25F ranks the best 80 in the client over the
 * start of their fields and cuts the snippets with their matched ranges, so team results read like local ones.
 */
import type { SearchOptions, SearchResult } from '../contracts.js';
import { dayRange } from '../dates.js';
import { searchSessions, type QueryPlan } from '../answer/search.js';
import { SCHEMA } from './schema.js';
import type { TeamDatabase } from './connection.js';
import { projectName } from './push.js';
import { rowSession, sessionColumns, teamView, type GlobalStats, type SessionRow } from './view.js';

/** Candidates PostgreSQL hands to our ranking. */
export const TEAM_CANDIDATES = 80;
/** Text per field of a candidate that our ranking and snippets read. */
const CANDIDATE_CHARS = 12_000;
const MAX_WORDS = 32;

interface CandidateRow extends SessionRow {
  conversation: string;
  messages: string;
}

/**
 * The team sessions that best answer a query (those the connected role may read), ranked and with snippets. `plan`
 * is the local search's compiled query (answers.ts `plan`): PostgreSQL is asked for its words with the other forms,
 * near spellings and short forms the local index gave them (a typo finds the sessions holding the word meant), and
 * the candidates are ranked and cut into snippets by the same plan. `stats`: the local index's, for the words' weights.
 */
export async function searchTeam(db: TeamDatabase, plan: QueryPlan, options: SearchOptions, stats?: GlobalStats): Promise<SearchResult[]> {
  const { query } = plan;
  const expanded = plan.slots.flatMap((slot) => slot.alts.flatMap((a) => a.all ?? a.term));
  const words = [...new Set([...query.terms, ...expanded, ...query.literals])].slice(0, MAX_WORDS);
  if (!words.length) return [];
  const range = dayRange(options);
  const n = words.length;
  const params: unknown[] = [
    ...words,
    TEAM_CANDIDATES,
    options.source ?? null,
    options.branch ?? null,
    options.project ? projectName(options.project) : null,
    range.from ?? null,
    range.to ?? null,
    CANDIDATE_CHARS,
  ];
  const tsquery = words.map((_, i) => `plainto_tsquery('english', $${i + 1})`).join(' || ');
  const at = (k: number): string => `$${n + k}`;
  const rows = await db.withClient(async (client) => {
    const result = await client.query<CandidateRow>(
      `WITH top AS (SELECT * FROM ${SCHEMA}.match(${tsquery}, ${at(1)}, ${at(2)}, ${at(3)}, ${at(4)}, ${at(5)}::date, ${at(6)}::date))
       SELECT ${sessionColumns('s')}, left(s.conversation, ${at(7)}) AS conversation, left(s.messages, ${at(7)}) AS messages
       FROM top JOIN ${SCHEMA}.sessions s ON s.owner = top.owner AND s.machine = top.machine AND s.id = top.id
       ORDER BY top.rank DESC`,
      params,
    );
    return result.rows;
  });
  if (!rows.length) return [];
  const byId = new Map<string, CandidateRow>();
  const sessions = rows.map((row) => {
    const session = rowSession(row, (key) => [
      { id: key, role: 'user', kind: 'conversation', text: row.conversation },
      { id: key, role: 'tool', kind: 'tool', text: row.messages },
    ]);
    byId.set(session.id, row);
    return session;
  });
  const view = teamView(sessions, (s) => ({ content: [byId.get(s.id)!.conversation], messages: [byId.get(s.id)!.messages] }), stats);
  // project, tags and modes are the local library's concerns: the project was matched by name above
  const ranked: QueryPlan = { ...plan, options: { limit: options.limit, source: options.source, branch: options.branch, mode: 'lexical' }, range };
  return searchSessions(view, ranked, query.text ?? '').results.map((result) => {
    const row = byId.get(result.id)!;
    const team: SearchResult = { ...result, file: '', owner: row.owner, machine: row.machine };
    // not on this machine: nothing to resume here, and no transcript that could have been deleted
    delete team.resumeCommand;
    delete team.sourceDeleted;
    return team;
  });
}
