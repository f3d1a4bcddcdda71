/**
 * Answers kept small enough to read: an MCP client refuses a message over 10 MB by closing the connection, and a
 * search with no limit (its contract: all matches) over a large history is larger. The search builds its results only
 * while they fit (snippets are the cost of a result); a list that does not fit is cut to its first items that do.
 */

/** How many of `items`, from the first, fit in `budget` characters of JSON beside the `used` already taken. */
export function fittingCount(items: readonly unknown[], budget: number, used = 0): number {
  let total = used;
  for (let kept = 0; kept < items.length; kept++) {
    total += JSON.stringify(items[kept]).length + 1;
    if (total > budget) return kept;
  }
  return items.length;
}

/** The note of a search's answer cut to its best `kept` of `matched`. */
export function searchCutNote(matched: number, kept: number): string {
  return (
    `${matched} sessions match; the best ${kept} are here (an answer is kept small enough for MCP clients to read): ` +
    'ask again with a limit, more words, or a date, source or project filter to see others.'
  );
}

/** The note of a search's answer cut to its best `kept` of the `limit` asked for, where how many match in all is not known. */
export function searchCutAtNote(limit: number, kept: number): string {
  return (
    `The best ${kept} of the first ${limit} sessions that match are here (an answer is kept small enough for MCP clients to read): ` +
    'ask again with more words, or a date, source or project filter, to see others.'
  );
}

/** `note` followed by `more` (either may be absent). */
export function addNote(note: string | undefined, more: string): string {
  return note ? `${note} ${more}` : more;
}
