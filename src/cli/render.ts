/** Human-readable output for the terminal. Matched words are marked when stdout is a terminal. */
import type { SourceReport } from '../core/library/sources-report.js';
import type { GetResponse, ListResponse, SearchResponse } from '../core/contracts.js';
import { indexingLine } from '../core/indexing-line.js';
import { grouped } from '../core/digits.js';
import { homedir } from 'node:os';
import { sep } from 'node:path';

export const ANSI = { bold: '\x1b[1m', dim: '\x1b[2m', mark: '\x1b[1;33m', reset: '\x1b[0m' };

export function style(color: boolean, code: string, text: string): string {
  return color ? `${code}${text}${ANSI.reset}` : text;
}

/** Terminal control characters in transcript text must not drive the user's terminal. */
export function printable(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f\x9b]/g, ' ');
}

/**
 * Why there is nothing at all to search: where the history was looked for, and what was there. A line per source (a
 * tool's folders that do not exist told as one: Copilot Chat alone has a dozen, one per editor), the home folder as ~.
 */
export function nothingOnDisk(roots: { source: string; path: string; exists: boolean }[], home = homedir()): string {
  const shown = (path: string): string => printable(home && (path === home || path.startsWith(`${home}${sep}`)) ? `~${path.slice(home.length)}` : path);
  const bySource = new Map<string, { path: string; exists: boolean }[]>();
  for (const r of roots) bySource.set(r.source, [...(bySource.get(r.source) ?? []), r]);
  const width = Math.max(0, ...[...bySource.keys()].map((k) => k.length));
  const lines = [...bySource].map(([source, folders]) => {
    const found = folders.filter((f) => f.exists).map((f) => `${shown(f.path)}: no transcripts`);
    const missing = folders.filter((f) => !f.exists).map((f) => shown(f.path));
    if (missing.length === 1) found.push(`${missing[0]}: does not exist`);
    if (missing.length > 1) found.push(`${missing.length} folders, none exists (${missing.length > 2 ? `${missing[0]}, …` : missing.join(', ')})`);
    return `  ${source.padEnd(width)}  ${found.join('; ')}`;
  });
  return `No sessions found on disk. Where each tool keeps its history:\n${lines.join('\n')}\nPoint a source at its folder with --root SOURCE=PATH.\n`;
}

export function renderSearch(response: SearchResponse, color: boolean): string {
  const line = indexingLine(response);
  const notice = response.teamNotice ? style(color, ANSI.dim, `team archive: ${printable(response.teamNotice)}\n`) : '';
  const partial = notice + (line && style(color, ANSI.dim, line));
  if (response.note && !response.results.length) return `${partial}${printable(response.note)}\n`;
  if (!response.results.length) return `${partial}No sessions match "${printable(response.query)}".\n`;
  // the engine's ranges are marked as they are; cleaning control characters keeps every offset
  const mark = (text: string, ranges: [number, number][] = [], base = ''): string => {
    const plain = (part: string): string => (base && part ? style(color, base, printable(part)) : printable(part));
    if (!color) return printable(text);
    let out = '';
    let last = 0;
    for (const [from, to] of ranges) {
      if (from < last) continue;
      out += plain(text.slice(last, from)) + style(true, ANSI.mark, printable(text.slice(from, to)));
      last = to;
    }
    return out + plain(text.slice(last));
  };
  const lines: string[] = [];
  response.results.forEach((r, i) => {
    const deleted = r.owner
      ? style(color, ANSI.dim, `  (team: ${printable(r.owner)}@${printable(r.machine ?? '')})`)
      : r.sourceDeleted
        ? style(color, ANSI.dim, '  (source deleted)')
        : '';
    const head = `${String(i + 1).padStart(2)}. ${r.date.slice(0, 10)}  ${r.source}  ${mark(r.topic, r.topicHighlights, ANSI.bold)}  (${r.relevanceScore.toFixed(2)})${deleted}`;
    lines.push(head);
    if (r.project) lines.push(`    ${style(color, ANSI.dim, `project: ${printable(r.project)}${r.branch ? ` (${printable(r.branch)})` : ''}`)}`);
    if (r.parentId) lines.push(`    ${style(color, ANSI.dim, `sub-agent of ${r.parentId}`)}`);
    r.matchedSnippets.forEach((s, k) => lines.push(`    ${mark(s, r.snippetHighlights[k])}`));
    lines.push(`    ${style(color, ANSI.dim, `id: ${r.id}${r.resumeCommand ? `  ·  resume: ${r.resumeCommand}` : ''}`)}`);
    lines.push('');
  });
  const also = response.alsoMatched?.length ? ` (also matched: ${printable(response.alsoMatched.join(', '))})` : '';
  const how = response.mode
    ? ` · ${response.mode === 'lexical' ? 'ranked by words' : response.mode === 'hybrid' ? 'ranked by words and meaning' : 'ranked by meaning'}`
    : '';
  // (how many matched, where the limit or the answer's size left some out)
  const of = response.matched ? ` of ${grouped(response.matched)}` : '';
  const more = response.matched && response.count < response.matched ? ' (--limit N shows more)' : '';
  lines.push(`${response.count}${of} result${(response.matched ?? response.count) === 1 ? '' : 's'}${also}${how}${more}`);
  const note = response.note ? style(color, ANSI.dim, `${printable(response.note)}\n`) : '';
  return `${partial}${note}${lines.join('\n')}\n`;
}

export function renderList(response: ListResponse, color: boolean): string {
  if (!response.sessions.length) return 'No sessions found.\n';
  const lines = response.sessions.map(
    (s) =>
      `${s.date.slice(0, 10)}  ${s.source.padEnd(13)}  ${style(color, ANSI.bold, printable(s.topic))}  ${style(color, ANSI.dim, `${s.turns} turns  ${s.id}${s.sourceDeleted ? '  (source deleted)' : ''}`)}`,
  );
  lines.push(
    response.matched
      ? `${response.count} of ${grouped(response.matched)} sessions, the newest (--limit N, or a filter, shows others)`
      : `${response.count} session${response.count === 1 ? '' : 's'}`,
  );
  return `${lines.join('\n')}\n`;
}

/** "N lines could not be read (reason)": what a session's answer left out. */
export function unreadLine(u: { count: number; reasons: string[] }): string {
  return `${u.count} line${u.count === 1 ? '' : 's'} of the transcript could not be read (${printable(u.reasons[0] ?? 'see the log')}${u.count > 1 ? ', …' : ''}); --verbose logs each.`;
}

/** What a reader should know before the transcript: it is gone from its tool, it is a sub-agent, it started some. */
function getNotes(s: GetResponse['session']): string[] {
  const notes: string[] = [];
  if (s.sourceDeleted)
    notes.push(`> The tool deleted this transcript (${printable(s.file)}); this copy is from the archive, and the tool cannot reopen it.\n\n`);
  if (s.parentId) notes.push(`> A sub-agent of ${s.parentId} (session-search get ${s.parentId}).\n\n`);
  if (s.children?.length) notes.push(`> Sub-agents it started: ${s.children.join(', ')}.\n\n`);
  if (s.unreadLines) notes.push(`> ${unreadLine(s.unreadLines)}\n\n`);
  return notes;
}

export function renderGet(response: GetResponse): string {
  const s = response.session;
  // nothing never prints nothing: an empty transcript says so
  if (!s.content.trim()) return `# ${printable(s.topic || s.filename)}\n\n(no messages: ${printable(s.file)} holds nothing to show)\n`;
  if (s.format === 'json') return `${getNotes(s).join('')}${printable(s.content)}\n`;
  return `# ${printable(s.topic)}\n\n${getNotes(s).join('')}${printable(s.content)}\n`;
}

/** `session-search sources`: every source, its folders and how many sessions each gave. */
export function renderSources(report: SourceReport[]): string {
  const lines: string[] = [];
  for (const source of report) {
    lines.push(`${source.label} (${source.id}): ${source.sessions} session${source.sessions === 1 ? '' : 's'}`);
    if (!source.roots.length) lines.push('  no folder (import an export with `session-search import <file>`)');
    for (const root of source.roots)
      lines.push(
        `  ${root.path}${root.imported ? ' (imported)' : ''}: ${root.exists ? `${root.sessions} session${root.sessions === 1 ? '' : 's'}` : 'not found'}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
