/** One ranked session of the search panel's list: its title and meta line, its tags, its snippets with words marked. */
import type { SearchResult } from '../src/core/contracts.js';
import { appendMarked, el } from './highlight.js';

/** The tags worth showing on a result: the ones given and the topics (source, project and branch are shown already). */
function shownTags(r: SearchResult): string[] {
  const already = new Set([r.source, r.branch?.toLowerCase(), r.project?.split(/[\\/]/).filter(Boolean).pop()?.toLowerCase()]);
  return (r.tags ?? []).filter((t) => !already.has(t)).slice(0, 6);
}

/** The list item of result `i`; `open` is told the turn of the snippet clicked, if one was. */
export function resultItem(r: SearchResult, i: number, open: (r: SearchResult, turnId?: string) => void): HTMLElement {
  const item = el('div', 'result');
  item.tabIndex = 0;
  item.setAttribute('role', 'option');
  item.dataset.index = String(i);
  const title = el('div', 'title');
  title.append(el('span', `codicon codicon-${r.owner ? 'organization' : r.sourceDeleted ? 'trash' : 'comment-discussion'}`));
  title.append(document.createTextNode(' '));
  appendMarked(title, r.topic, r.topicHighlights);
  const meta = el(
    'div',
    'meta',
    `${r.date.slice(0, 10)} · ${r.source}${r.project ? ` · ${r.project}` : ''} · ${r.relevanceScore.toFixed(2)}${r.owner ? ` · team: ${r.owner}@${r.machine ?? ''}` : r.sourceDeleted ? ' · source deleted' : ''}`,
  );
  const tags = shownTags(r);
  if (tags.length) meta.append(el('span', 'tags', ` · ${tags.map((t) => `#${t}`).join(' ')}`));
  item.append(title, meta);
  r.matchedSnippets.forEach((snippet, s) => {
    const line = el('div', 'snippet');
    appendMarked(line, snippet, r.snippetHighlights[s]);
    line.dataset.turn = r.snippetTurnIds[s];
    item.append(line);
  });
  item.addEventListener('click', (e) => open(r, (e.target as HTMLElement).closest<HTMLElement>('.snippet')?.dataset.turn));
  return item;
}
