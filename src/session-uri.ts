/**
 * The one builder of `session-search:` URIs, which open a session as a read-only markdown document:
 * `session-search:/<source>/<title>.md?id=<session id>`: the tab shows the title, the query names the session. Used by
 * the extension's reader and by the index server's Go to Symbol answers (no `vscode` import here).
 */

export const SESSION_SCHEME = 'session-search';

/** The path (source and a file-name-safe title) and query (the session id) of a session's URI. */
export function sessionUriParts(id: string, title: string): { path: string; query: string } {
  const name =
    title
      .replace(/[\\/:*?"<>|#?%\s]+/g, ' ')
      .trim()
      .slice(0, 60) || 'session';
  return { path: `/${id.split(':')[0]}/${name}.md`, query: `id=${encodeURIComponent(id)}` };
}

/** The URI as text, for protocols that carry strings (LSP locations). */
export function sessionUriString(id: string, title: string): string {
  const { path, query } = sessionUriParts(id, title);
  return `${SESSION_SCHEME}:${path.split('/').map(encodeURIComponent).join('/')}?${query}`;
}

/** The session id a URI's query names. */
export function sessionIdFromQuery(query: string): string {
  return new URLSearchParams(query).get('id') ?? '';
}
