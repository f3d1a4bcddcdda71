/** Error codes shared with CodeArchitect's tools, so prompts written for them keep working. */
export type ErrorCode = 'Search query is required' | 'INVALID_DATE' | 'INVALID_ARGUMENT' | 'FILE_NOT_FOUND' | 'READ_ERROR' | 'PARSE_ERROR' | 'UNKNOWN_ERROR';

export class SessionSearchError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SessionSearchError';
  }
}

export function errorCode(err: unknown): ErrorCode {
  return err instanceof SessionSearchError ? err.code : 'UNKNOWN_ERROR';
}

/** The one way an error becomes text for a log line or an answer. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
