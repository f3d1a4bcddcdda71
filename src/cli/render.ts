/** Human-readable output for the terminal. Matched words are marked when stdout is a terminal. */
import type { GetResponse, ListResponse, SearchResponse } from '../core/api.js';
import { parseQuery } from '../core/index/query.js';
import { matcherFor } from '../core/index/snippets.js';

const ANSI = { bold: '\x1b[1m', dim: '\x1b[2m', mark: '\x1b[1;33m', reset: '\x1b[0m' };

function style(color: boolean, code: string, text: string): string {
  return color ? `${code}${text}${ANSI.reset}` : text;
}

/** Terminal control characters in transcript text must not drive the user's terminal. */
export function printable(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f\x9b]/g, ' ');
}

export function renderSearch(response: SearchResponse, color: boolean): string {
  if (!response.results.length) return `No sessions match "${printable(response.query)}".\n`;
  const matcher = matcherFor(parseQuery(response.query));
  const mark = (text: string): string => (color && matcher ? text.replace(matcher, (m) => style(true, ANSI.mark, m)) : text);
  const lines: string[] = [];
  response.results.forEach((r, i) => {
    const head = `${String(i + 1).padStart(2)}. ${r.date.slice(0, 10)}  ${r.source}  ${style(color, ANSI.bold, printable(r.topic))}  (${r.relevanceScore.toFixed(2)})`;
    lines.push(head);
    if (r.project) lines.push(`    ${style(color, ANSI.dim, `project: ${printable(r.project)}${r.branch ? ` (${printable(r.branch)})` : ''}`)}`);
    for (const s of r.matchedSnippets) lines.push(`    ${mark(printable(s))}`);
    lines.push(`    ${style(color, ANSI.dim, `id: ${r.id}`)}`);
    lines.push('');
  });
  lines.push(`${response.count} result${response.count === 1 ? '' : 's'}`);
  return `${lines.join('\n')}\n`;
}

export function renderList(response: ListResponse, color: boolean): string {
  if (!response.sessions.length) return 'No sessions found.\n';
  const lines = response.sessions.map(
    (s) => `${s.date.slice(0, 10)}  ${s.source.padEnd(13)}  ${style(color, ANSI.bold, printable(s.topic))}  ${style(color, ANSI.dim, `${s.turns} turns  ${s.id}`)}`,
  );
  lines.push(`${response.count} session${response.count === 1 ? '' : 's'}`);
  return `${lines.join('\n')}\n`;
}

export function renderGet(response: GetResponse): string {
  const s = response.session;
  if (s.format === 'json') return `${printable(s.content)}\n`;
  return `# ${printable(s.topic)}\n\n${printable(s.content)}\n`;
}
