/**
 * Search over the team archive: PostgreSQL full-text search (the stored `tsvector`, weighted like our fields: title A,
 * conversation B, the rest D) finds the candidates the role may read; our own BM25F ranks them in the client, over
 * the same fields, and cuts the snippets with their matched ranges, so team results read like local ones.
 */
import type { SearchOptions, SearchResult } from '../contracts.js';
import { dayRange } from '../dates.js';
import { parseQuery } from '../index/query.js';
import { planQuery, searchSessions } from '../answer/search.js';
import { SCHEMA } from './schema.js';
import type { TeamDatabase } from './connection.js';
import { projectName } from './push.js';
import { rowSession, SESSION_COLUMNS, teamView, type SessionRow } from './view.js';

/** Candidates PostgreSQL hands to our ranking. */
export const TEAM_CANDIDATES = 40;
/** Text per field of a candidate that our ranking and snippets read. */
const CANDIDATE_CHARS = 30_000;
const MAX_WORDS = 16;

interface CandidateRow extends SessionRow {
  conversation: string;
  messages: string;
}

/** The team sessions that best answer `query` (those the connected role may read), ranked and with snippets. */
export async function searchTeam(db: TeamDatabase, query: string, options: SearchOptions): Promise<SearchResult[]> {
  const parsed = parseQuery(query);
  const words = [...new Set([...parsed.terms, ...parsed.literals])].slice(0, MAX_WORDS);
  if (!words.length) return [];
  const range = dayRange(options);
  const params: unknown[] = [...words];
  const where: string[] = ['s.doc @@ q.q'];
  const add = (sql: (n: number) => string, value: unknown): void => {
    params.push(value);
    where.push(sql(params.length));
  };
  if (options.source) add((n) => `s.source = $${n}`, options.source);
  if (options.branch) add((n) => `s.branch = $${n}`, options.branch);
  if (options.project) add((n) => `s.project = $${n}`, projectName(options.project));
  if (range.from) add((n) => `coalesce(s.last_day, s.first_day) >= $${n}::date`, range.from);
  if (range.to) add((n) => `s.first_day <= $${n}::date`, range.to);
  params.push(CANDIDATE_CHARS);
  const chars = `$${params.length}`;
  const tsquery = words.map((_, i) => `plainto_tsquery('english', $${i + 1})`).join(' || ');
  const rows = await db.withClient(async (client) => {
    const result = await client.query<CandidateRow>(
      `WITH q AS (SELECT ${tsquery} AS q)
       SELECT ${SESSION_COLUMNS}, left(s.conversation, ${chars}) AS conversation, left(s.messages, ${chars}) AS messages
       FROM ${SCHEMA}.sessions s, q WHERE ${where.join(' AND ')}
       ORDER BY ts_rank(s.doc, q.q, 1) DESC LIMIT ${TEAM_CANDIDATES}`,
      params,
    );
    return result.rows;
  });
  if (!rows.length) return [];
  const texts = new Map<string, { conversation: string; messages: string }>();
  const sessions = rows.map((row) => {
    const session = rowSession(row, (key) => [
      { id: key, role: 'user', kind: 'conversation', text: row.conversation },
      { id: key, role: 'tool', kind: 'tool', text: row.messages },
    ]);
    texts.set(session.id, row);
    return session;
  });
  const owners = new Map(rows.map((r, i) => [sessions[i].id, r]));
  const view = teamView(sessions, (s) => ({ content: [texts.get(s.id)!.conversation], messages: [texts.get(s.id)!.messages] }));
  // project, tags and modes are the local library's concerns: the project was matched by name above
  const plan = planQuery(view.index, parsed, { limit: options.limit, source: options.source, branch: options.branch, mode: 'lexical' }, range);
  return searchSessions(view, plan, query).results.map((result) => {
    const row = owners.get(result.id)!;
    const team: SearchResult = { ...result, file: '', owner: row.owner, machine: row.machine };
    // not on this machine: nothing to resume here, and no transcript that could have been deleted
    delete team.resumeCommand;
    delete team.sourceDeleted;
    return team;
  });
}
