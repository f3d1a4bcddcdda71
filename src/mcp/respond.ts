/** How every tool answers: compact text (TOON where smaller) plus the same object as structuredContent. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorCode, errorMessage } from '../core/errors.js';
import { answerText, toToon, type OutputFormat } from '../core/format.js';
import type { GetResponse } from '../core/contracts.js';
import { addNote, fittingCount, searchCutNote } from '../core/answer/fit.js';

const NEXT_STEP: Record<string, string> = {
  'Search query is required': 'Call again with one or more words in `query`.',
  INVALID_DATE: 'Give dates as YYYY-MM-DD, with dateFrom not after dateTo.',
  INVALID_ARGUMENT: 'Correct the argument named in the message and call again.',
  FILE_NOT_FOUND: 'Call search_session or get_session without a filename to find a valid name or id.',
  READ_ERROR: 'The source file may have been moved or deleted; search again for the session.',
  PARSE_ERROR: 'The source file is damaged; try another session.',
  UNKNOWN_ERROR: 'Try again; if it persists, report it with the message.',
};

/**
 * The most characters of JSON an answer's results take. An answer goes out twice in one message (as text and as
 * structuredContent), and the MCP SDK's clients refuse a message over 10 MB by closing the connection: a search with
 * no limit over a large history (7,322 sessions matched "retry" at 10,000 sessions: 18 MB) ended the agent's session.
 */
export const ANSWER_CHARS = 2_500_000;

/**
 * What a search's results may take of it (the search builds no more: `maxChars`), with room for the answer's other
 * fields; half of it beside the groups of a search grouped by workspace.
 */
export function resultChars(groupBy: string | undefined): number {
  return (groupBy ? ANSWER_CHARS / 2 : ANSWER_CHARS) - 20_000;
}

export function ok(value: object, format: OutputFormat = 'auto'): CallToolResult {
  return { content: [{ type: 'text', text: answerText(value, format) }], structuredContent: value as Record<string, unknown> };
}

/**
 * An answer whose list (`results` best first, or `sessions` newest first) takes more than ANSWER_CHARS, cut to the first
 * that fit; `matched` says how many there were and `note` how to see the rest. Any other answer as it is. (The lists of
 * search_session and get_session, which have no default limit, as their contracts ask. A search builds only the
 * results that fit, `maxChars`, and says so itself: this is the last guard, as where the team's results were merged.)
 */
export function fitResults(answer: object, key: 'results' | 'sessions', budget = ANSWER_CHARS): object {
  // a search grouped by workspace: its groups take at most half, so that its results are never what is cut away
  const value = key === 'results' ? fitWorkspaces(answer, Math.floor(budget / 2)) : answer;
  const { note, matched } = value as { note?: string; matched?: number };
  const list = (value as Record<string, unknown>)[key];
  if (!Array.isArray(list) || !list.length) return value;
  const kept = fittingCount(list, budget, JSON.stringify({ ...value, [key]: [] }).length);
  if (kept === list.length) return value;
  const all = Math.max(matched ?? 0, list.length);
  if (key === 'results') {
    // (a search already cut says so in its note)
    const said = matched !== undefined && note?.includes(searchCutNote(matched, list.length));
    const cutNote = searchCutNote(all, kept);
    return {
      ...value,
      results: list.slice(0, kept),
      count: kept,
      matched: all,
      note: said ? note!.replace(searchCutNote(matched, list.length), cutNote) : addNote(note, cutNote),
    };
  }
  const cut =
    `${all} sessions; the newest ${kept} are listed (an answer is kept small enough for MCP clients to read): ` +
    'ask again with a date, source or project filter to see others.';
  return { ...value, sessions: list.slice(0, kept), count: kept, matched: all, note: addNote(note, cut) };
}

/** A search's `workspaces` (most matches first) cut to the first that fit in `budget`, the note saying so. */
function fitWorkspaces(value: object, budget: number): object {
  const { workspaces, note } = value as { workspaces?: unknown[]; note?: string };
  if (!Array.isArray(workspaces)) return value;
  const kept = fittingCount(workspaces, budget);
  if (kept === workspaces.length) return value;
  const cut =
    `${workspaces.length} workspaces hold matches; the ${kept} with the most are here (an answer is kept small enough for MCP clients to read): ` +
    'ask again with a project, date or source filter to see others.';
  return { ...value, workspaces: workspaces.slice(0, kept), note: addNote(note, cut) };
}

/**
 * A session too long for one answer (its turns go out twice, as `messages` and as `content`, and the text answer once
 * more): its first turns that fit, the content cut at a line to the same share, and `cut` saying how to read the rest.
 */
export function fitSession(response: GetResponse, budget = ANSWER_CHARS): GetResponse {
  const { session } = response;
  const half = Math.floor(budget / 2);
  if (session.content.length + JSON.stringify(session.messages).length <= budget) return response;
  const kept = fittingCount(session.messages, half);
  const messages = session.messages.slice(0, kept);
  // TOON's content is the messages encoded (its row count must be theirs); Markdown is cut at a line
  const content =
    session.format === 'toon' && session.content.startsWith('messages[')
      ? toToon({ messages })
      : session.content.length > half
        ? session.content.slice(0, Math.max(0, session.content.lastIndexOf('\n', half)))
        : session.content;
  const cut =
    `The session has ${session.messages.length} turns; the first ${kept} are here (an answer is kept small enough for MCP clients to read): ` +
    `read_session with docid "${session.id}" pages the whole session.`;
  return { ...response, session: { ...session, messages, content, cut } };
}

export function fail(err: unknown): CallToolResult {
  const code = errorCode(err);
  const body = { success: false, error: code, message: `${errorMessage(err)} ${NEXT_STEP[code] ?? ''}`.trim() };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** Runs a handler, turning thrown errors into isError results so the server never goes down on bad input. */
export async function answer(work: () => Promise<CallToolResult> | CallToolResult): Promise<CallToolResult> {
  try {
    return await work();
  } catch (err) {
    return fail(err);
  }
}
