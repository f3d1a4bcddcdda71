/** How every tool answers: compact text (TOON where smaller) plus the same object as structuredContent. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorCode, errorMessage } from '../core/errors.js';
import { answerText, type OutputFormat } from '../core/format.js';

const NEXT_STEP: Record<string, string> = {
  'Search query is required': 'Call again with one or more words in `query`.',
  INVALID_DATE: 'Give dates as YYYY-MM-DD, with dateFrom not after dateTo.',
  INVALID_ARGUMENT: 'Correct the argument named in the message and call again.',
  FILE_NOT_FOUND: 'Call search_session or get_session without a filename to find a valid name or id.',
  READ_ERROR: 'The source file may have been moved or deleted; search again for the session.',
  PARSE_ERROR: 'The source file is damaged; try another session.',
  UNKNOWN_ERROR: 'Try again; if it persists, report it with the message.',
};

export function ok(value: object, format: OutputFormat = 'auto'): CallToolResult {
  return { content: [{ type: 'text', text: answerText(value, format) }], structuredContent: value as Record<string, unknown> };
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
