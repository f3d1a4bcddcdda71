/** Search results exported as a list (Markdown or JSON), as the panel's "Export Results…" saves them. Already masked. */
import type { SearchResponse } from './contracts.js';

export type ResultsFormat = 'md' | 'json';

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

export function exportResults(response: SearchResponse, format: ResultsFormat): string {
  if (format === 'json') return `${JSON.stringify({ query: response.query, count: response.count, results: response.results }, null, 2)}\n`;
  const lines = [`# Sessions for "${oneLine(response.query)}"`, '', `${response.count} session${response.count === 1 ? '' : 's'}.`];
  response.results.forEach((r, i) => {
    lines.push('', `## ${i + 1}. ${oneLine(r.topic)}`, '');
    lines.push(`- **Source:** ${r.source} · **Date:** ${r.date.slice(0, 10)} · **Relevance:** ${r.relevanceScore.toFixed(2)}`);
    if (r.project) lines.push(`- **Project:** ${r.project}${r.branch ? ` (${r.branch})` : ''}`);
    lines.push(`- **Session:** \`${r.id}\``);
    if (r.resumeCommand) lines.push(`- **Resume:** \`${r.resumeCommand}\``);
    for (const snippet of r.matchedSnippets) lines.push('', `> ${oneLine(snippet)}`);
  });
  return `${lines.join('\n')}\n`;
}
