/**
 * The search panel: query box and filters, ranked results with marked snippets, a chart of matching sessions per day,
 * and a reader showing the hit with turns either side. Talks to the host only through webview-protocol messages.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { SearchResult } from '../src/core/contracts.js';
import { MAX_RESULTS, RESULTS, type FromPanel, type PanelFilters, type PanelTurn, type ToPanel } from '../src/webview-protocol.js';
import { appendTree, el, visibleControls } from './highlight.js';
import { markdownTree, preformatted, type MdNode } from './markdown.js';
import { drawChart } from './chart.js';
import { renderPreferences } from './preferences.js';
import { decisionsSection, renderDecisions } from './decisions.js';
import { WorkspaceView } from './workspaces.js';
import { resultItem } from './result-item.js';
import { choice, select, textfield, toggledSection, type Field } from './controls.js';

declare function acquireVsCodeApi(): { postMessage(message: FromPanel): void; setState(state: unknown): void; getState(): unknown };
const vscode = acquireVsCodeApi();
const send = (m: FromPanel): void => vscode.postMessage(m);

/** Characters of one turn shown at once: a 10 MB tool output stays copyable without freezing the panel. */
const TURN_DISPLAY_LIMIT = 100_000;
const ROLES = ['user', 'assistant', 'tool', 'system'];
const KINDS = ['conversation', 'file', 'diff', 'note', 'tool', 'thinking'];

const app = document.getElementById('app')!;
let lastQuery = '';
let results: SearchResult[] = [];
/** More sessions matched than the list shows (and it may show more): Show More is offered. */
let moreMatched = false;
/** Show More was pressed: the first of the sessions it adds takes the focus. */
let moreFrom: number | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

/** How results are ranked: words and meaning (the default), words only, meaning only. */
const modeSelect = (): Field =>
  choice(
    'mode',
    'Ranking',
    [
      ['', 'Words and meaning'],
      ['lexical', 'Words only'],
      ['semantic', 'Meaning only'],
    ],
    search,
  );

/** Several tags: sessions carrying any of them (more of them first), or only those carrying all. */
const tagMatchSelect = (): Field =>
  choice(
    'tagMatch',
    'Tags to match',
    [
      ['', 'Any of the tags'],
      ['all', 'All of the tags'],
    ],
    search,
  );

/** Where to search, when a team archive is configured: this machine, or this machine and the team. */
const scopeSelect = (): Field =>
  choice(
    'scope',
    'Scope',
    [
      ['', 'This machine'],
      ['team', 'This machine and team'],
    ],
    search,
  );

/** What the list shows: ranked sessions, or the matching exchanges by workspace (no new search either way). */
const viewSelect = (): Field =>
  choice(
    'view',
    'Show',
    [
      ['', 'Sessions'],
      ['workspaces', 'Exchanges by workspace'],
    ],
    () => {
      showList();
      saveState();
    },
  );

const query = textfield('query', 'Search sessions: words, "a phrase", -exclude', () => schedule());
query.classList.add('query');
const filters = el('div', 'filters');
const count = el('div', 'count');
const exportButton = document.createElement('vscode-button');
exportButton.id = 'export-results';
exportButton.setAttribute('secondary', '');
exportButton.textContent = 'Export Results…';
exportButton.hidden = true;
exportButton.addEventListener('click', () => send({ type: 'exportResults', query: lastQuery, filters: currentFilters() }));
const preferences = toggledSection('preferences', 'Preferences', () => send({ type: 'preferences' }));
const decisions = decisionsSection(send, () => value('project'));
count.setAttribute('role', 'status');
const chart = el('div', 'chart');
const list = el('div', 'results');
list.setAttribute('role', 'listbox');
const moreButton = document.createElement('vscode-button');
moreButton.id = 'show-more';
moreButton.setAttribute('secondary', '');
moreButton.textContent = `Show ${RESULTS} More`;
moreButton.hidden = true;
moreButton.addEventListener('click', () => {
  moreFrom = results.length;
  send({ type: 'search', searchId, query: lastQuery, filters: currentFilters(), limit: Math.min(MAX_RESULTS, results.length + RESULTS) });
});
const workspaceLine = el('div', 'workspaces-line');
workspaceLine.setAttribute('role', 'status');
const workspaceList = el('div', 'workspaces');
const workspaces = new WorkspaceView(workspaceList, workspaceLine, (hit) =>
  send({ type: 'openContext', sessionId: hit.sessionId, topic: hit.topic, turnId: hit.turnId, query: lastQuery }),
);
const reader = el('section', 'reader');
reader.hidden = true;
app.append(
  query,
  filters,
  count,
  workspaceLine,
  exportButton,
  preferences.button,
  decisions.button,
  preferences.section,
  decisions.section,
  chart,
  list,
  moreButton,
  workspaceList,
  reader,
);
showList();

/** What the panel restores when it is shown again: the query and the list chosen. */
type PanelState = { query?: string; view?: string };
function saveState(): void {
  vscode.setState({ query: lastQuery, view: value('view') } satisfies PanelState);
}

/** Show More is offered where more matched than the sessions' list shows, and that list is the one shown. */
function offerMore(): void {
  moreButton.hidden = !moreMatched || value('view') === 'workspaces';
}

/** Shows the chosen list (sessions with their chart, or exchanges by workspace), the reader closed. */
function showList(): void {
  const byWorkspace = value('view') === 'workspaces';
  list.hidden = chart.hidden = byWorkspace;
  offerMore();
  workspaceList.hidden = !byWorkspace;
  reader.hidden = true;
}

function value(id: string): string | undefined {
  const v = (document.getElementById(id) as Field | null)?.value?.trim();
  return v ? v : undefined;
}

function currentFilters(): PanelFilters {
  return {
    source: value('source') as PanelFilters['source'],
    role: value('role') as PanelFilters['role'],
    kind: value('kind') as PanelFilters['kind'],
    project: value('project'),
    branch: value('branch'),
    dateFrom: value('from'),
    dateTo: value('to'),
    mode: value('mode') as PanelFilters['mode'],
    scope: value('scope') as PanelFilters['scope'],
    tags: value('tags')
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    allTags: value('tagMatch') === 'all' || undefined,
  };
}

function schedule(): void {
  clearTimeout(timer);
  timer = setTimeout(search, 120);
}

let searchId = 0;

function search(): void {
  lastQuery = query.value ?? '';
  moreFrom = undefined;
  saveState();
  const filters = currentFilters();
  searchId++;
  const typed = lastQuery.trim().length;
  workspaces.reset(
    searchId,
    typed === 0
      ? ''
      : typed < 2
        ? 'Type at least 2 characters to search every workspace.'
        : filters.scope === 'team'
          ? "The workspace view covers this machine's sessions."
          : undefined,
  );
  send({ type: 'search', searchId, query: lastQuery, filters });
}

function renderResults(m: Extract<ToPanel, { type: 'results' }>): void {
  results = m.results;
  const partial = m.indexing && !m.indexing.complete ? ` · still indexing (${m.indexing.filesDone} of ${m.indexing.filesTotal} files, newest first)` : '';
  const also = m.alsoMatched?.length ? ` · also matched: ${m.alsoMatched.join(', ')}` : '';
  const how = m.mode === 'lexical' && value('mode') !== 'lexical' ? ' · ranked by words' : '';
  const shown = m.matched ? `${m.count} of ${m.matched.toLocaleString('en-US')} sessions` : `${m.count} session${m.count === 1 ? '' : 's'}`;
  const team = m.teamNotice ? ` · team archive: ${m.teamNotice}` : '';
  count.textContent = m.note ?? (m.query.trim() ? `${shown} · ${m.tookMs} ms${also}${how}${partial}${team}` : '');
  exportButton.hidden = m.results.length === 0;
  list.replaceChildren();
  list.append(...m.results.map((r, i) => resultItem(r, i, open)));
  // more of the same search, where more matched than the list shows
  moreMatched = !!m.matched && m.count < Math.min(m.matched, MAX_RESULTS);
  offerMore();
  if (moreFrom !== undefined) list.querySelector<HTMLElement>(`.result[data-index="${moreFrom}"]`)?.focus();
  moreFrom = undefined;
  drawChart(
    chart,
    m.results.map((r) => r.date.slice(0, 10)),
    pickDay,
  );
}

/** A click on a day's bar: that day becomes the date filter, and the search runs again. */
function pickDay(day: string): void {
  for (const id of ['from', 'to']) {
    const field = document.getElementById(id) as Field | null;
    if (field) field.value = day;
  }
  search();
}

function open(r: SearchResult, turnId?: string): void {
  send({ type: 'openContext', sessionId: r.id, topic: r.topic, turnId: turnId ?? r.snippetTurnIds[0] ?? `${r.id}#0`, query: lastQuery });
}

function renderContext(m: Extract<ToPanel, { type: 'context' }>): void {
  reader.replaceChildren();
  const head = el('div', 'reader-head');
  head.append(el('h2', undefined, m.topic));
  const exporter = document.createElement('vscode-button');
  exporter.id = 'export';
  exporter.setAttribute('secondary', '');
  exporter.textContent = 'Export…';
  exporter.addEventListener('click', () => send({ type: 'export', sessionId: m.sessionId }));
  head.append(exporter);
  const close = document.createElement('vscode-button');
  close.id = 'close';
  close.textContent = 'Close (Esc)';
  close.addEventListener('click', closeReader);
  head.append(close);
  reader.append(head);
  // text, never markup: a deleted transcript, a sub-agent's parent
  for (const note of m.notes ?? []) reader.append(el('p', 'reader-note', note));
  const earlier = document.createElement('vscode-button');
  earlier.id = 'earlier';
  earlier.textContent = m.first > 0 ? `Show earlier (${m.first} before)` : 'Start of session';
  if (m.first === 0) earlier.setAttribute('disabled', '');
  earlier.addEventListener('click', () => send({ type: 'more', direction: 'earlier' }));
  reader.append(earlier);
  for (const t of m.turns) reader.append(turnBlock(m.sessionId, t, t.index === m.hitIndex));
  const after = m.total - (m.first + m.turns.length);
  const later = document.createElement('vscode-button');
  later.id = 'later';
  later.textContent = after > 0 ? `Show later (${after} after)` : 'End of session';
  if (after <= 0) later.setAttribute('disabled', '');
  later.addEventListener('click', () => send({ type: 'more', direction: 'later' }));
  reader.append(later);
  list.hidden = chart.hidden = workspaceList.hidden = moreButton.hidden = true;
  reader.hidden = false;
  reader.querySelector<HTMLElement>('.turn.hit')?.scrollIntoView({ block: 'center' });
  reader.querySelector<HTMLElement>('.turn.hit')?.focus();
}

function turnBlock(sessionId: string, t: PanelTurn, hit: boolean): HTMLElement {
  const block = el('article', `turn role-${t.role} kind-${t.kind}${hit ? ' hit' : ''}`);
  block.tabIndex = 0;
  const head = el(
    'div',
    'turn-head',
    `${t.role}${t.kind === 'conversation' ? '' : ` · ${t.kind}`}${t.timestamp ? ` · ${new Date(t.timestamp).toLocaleString()}` : ''}`,
  );
  const copy = el('button', 'icon codicon codicon-copy');
  copy.title = 'Copy this turn';
  copy.addEventListener('click', () => send({ type: 'copy', text: t.text }));
  head.append(copy);
  if (t.line) {
    const raw = el('button', 'icon codicon codicon-go-to-file');
    raw.title = `Open the raw file at line ${t.line}`;
    raw.addEventListener('click', () => send({ type: 'openRaw', sessionId, line: t.line }));
    head.append(raw);
  }
  const shown = t.text.length > TURN_DISPLAY_LIMIT ? t.text.slice(0, TURN_DISPLAY_LIMIT) : t.text;
  const body = el('div', 'turn-text');
  appendTree(body, turnTree(t, shown));
  const fold = foldSummary(t, shown);
  if (fold) {
    const details = el('details', 'fold');
    details.open = hit;
    details.append(el('summary', undefined, visibleControls(fold)), body);
    block.append(head, details);
  } else block.append(head, body);
  if (t.text.length > TURN_DISPLAY_LIMIT)
    block.append(el('div', 'meta', `… ${t.text.length - TURN_DISPLAY_LIMIT} more characters: copy the turn to read them all.`));
  return block;
}

/** Prose renders as Markdown; tool output, file reads and diffs stay as written, in a code block. */
function turnTree(t: PanelTurn, shown: string): MdNode[] {
  if (t.kind === 'diff') return preformatted(shown, t.highlights, 'diff');
  if (t.kind === 'file' || t.kind === 'tool' || t.role === 'tool') return preformatted(shown, t.highlights);
  return markdownTree(shown, t.highlights);
}

/** Lines of tool output shown unfolded; longer output, every tool call and all thinking fold to one line. */
const FOLD_LINES = 12;
const FOLD_CHARS = 1_200;

/** The one line a folded turn shows, or undefined when the turn is shown open. */
function foldSummary(t: PanelTurn, shown: string): string | undefined {
  const lines = shown.split('\n').length;
  if (t.kind === 'thinking') return `Thinking · ${shown.split(/\s+/).filter(Boolean).length} words`;
  const isCall = t.kind === 'tool' && t.role !== 'tool';
  const isLong = lines > FOLD_LINES || shown.length > FOLD_CHARS;
  if (!isCall && !(isLong && (t.role === 'tool' || t.kind !== 'conversation'))) return undefined;
  const first =
    shown
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? '';
  const name = t.tool ? `${t.tool}: ` : '';
  return `${name}${first.length > 120 ? `${first.slice(0, 120)}…` : first} · ${lines} line${lines === 1 ? '' : 's'}`;
}

function closeReader(): void {
  showList();
  (workspaceList.hidden ? list : workspaceList).querySelector<HTMLElement>('.result, .exchange')?.focus();
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !reader.hidden) {
    closeReader();
    e.preventDefault();
    return;
  }
  const active = document.activeElement as HTMLElement | null;
  if (active?.classList.contains('result')) {
    const i = Number(active.dataset.index);
    if (e.key === 'ArrowDown') (active.nextElementSibling as HTMLElement | null)?.focus();
    else if (e.key === 'ArrowUp') ((active.previousElementSibling as HTMLElement | null) ?? (query as HTMLElement)).focus();
    else if (e.key === 'Enter' && results[i]) open(results[i]);
    else return;
    e.preventDefault();
  } else if (e.key === 'ArrowDown' && active === query) {
    list.querySelector<HTMLElement>('.result')?.focus();
    e.preventDefault();
  }
});

window.addEventListener('message', (event: MessageEvent<ToPanel>) => {
  const m = event.data;
  if (m.type === 'init') {
    filters.replaceChildren(
      select('source', 'Source', m.sources, search),
      select('role', 'Role', ROLES, search),
      select('kind', 'Block type', KINDS, search),
      textfield('project', 'Project folder', schedule),
      textfield('branch', 'Git branch', schedule),
      textfield('tags', 'Tags, comma-separated', schedule),
      tagMatchSelect(),
      textfield('from', 'From YYYY-MM-DD', schedule),
      textfield('to', 'To YYYY-MM-DD', schedule),
      modeSelect(),
      viewSelect(),
      ...(m.team ? [scopeSelect()] : []),
    );
    const saved = vscode.getState() as PanelState | undefined;
    const view = document.getElementById('view') as Field | null;
    if (saved?.view && view) {
      view.value = saved.view;
      showList();
    }
    if (saved?.query) {
      query.value = saved.query;
      search();
    }
  } else if (m.type === 'results') renderResults(m);
  else if (m.type === 'workspace' || m.type === 'workspacesDone') workspaces.take(m);
  else if (m.type === 'context') renderContext(m);
  else if (m.type === 'preferences') renderPreferences(preferences.section, m.value, send);
  else if (m.type === 'decisions') renderDecisions(decisions.section, m.value, send);
  else if (m.type === 'error') count.textContent = m.message;
});

send({ type: 'ready' });
