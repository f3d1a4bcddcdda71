/**
 * The panel's "By workspace" view (the archive's search view): one section per workspace as it answers, each hit an
 * exchange (the person's message and the reply, words marked), the top 50 with the full count; a workspace that
 * failed says why and that searching again retries it. The line under the box counts workspaces and turns.
 */
import type { FailedWorkspace, WorkspaceGroup, WorkspaceSummary } from '../src/core/contracts.js';
import type { ToPanel } from '../src/webview-protocol.js';
import { appendMarked, el } from './highlight.js';

export type WorkspaceHit = WorkspaceGroup['hits'][number];

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export class WorkspaceView {
  private searchId = -1;
  private answered = 0;
  private turns = 0;
  private failed = 0;
  private done = false;

  /**
   * `list` receives the sections; `line` the count of workspaces and turns; `open` is called with a clicked hit.
   */
  constructor(
    readonly list: HTMLElement,
    private readonly line: HTMLElement,
    private readonly open: (hit: WorkspaceHit) => void,
  ) {}

  /**
   * A new search: what is shown goes, and only answers of `searchId` are taken from now on. `skipped` says why the
   * workspaces are not searched this time (a query too short, the team scope).
   */
  reset(searchId: number, skipped?: string): void {
    this.searchId = searchId;
    this.answered = this.turns = this.failed = 0;
    this.done = skipped !== undefined;
    this.list.replaceChildren();
    this.line.textContent = skipped ?? 'searching every workspace…';
  }

  /** Takes one message of the stream; those of an older search are dropped. */
  take(m: Extract<ToPanel, { type: 'workspace' | 'workspacesDone' }>): void {
    if (m.searchId !== this.searchId) return;
    if (m.type === 'workspacesDone') return this.finish(m.summary, m.error, m.tookMs);
    this.answered++;
    if (m.group) {
      this.turns += m.group.count;
      this.list.append(this.section(m.group));
    } else if (m.failed) {
      this.failed++;
      this.list.append(failedSection(m.failed));
    }
    if (!this.done) this.line.textContent = `${plural(this.answered, 'workspace')} answered so far · ${plural(this.turns, 'turn')}…`;
  }

  private finish(summary: WorkspaceSummary | undefined, error: string | undefined, tookMs: number): void {
    this.done = true;
    if (!summary) {
      this.line.textContent = `the workspaces could not be searched: ${error ?? 'no answer'}`;
      return;
    }
    const failed = summary.workspacesFailed ? ` · ${plural(summary.workspacesFailed, 'workspace')} failed: search again to retry` : '';
    this.line.textContent = `${plural(summary.workspacesSearched, 'workspace')} searched · ${plural(summary.turnsMatched, 'turn')} · ${tookMs} ms${failed}`;
    if (!this.list.childElementCount) this.list.append(el('div', 'meta', 'No turn matches in any workspace.'));
  }

  private section(group: WorkspaceGroup): HTMLElement {
    const section = el('section', 'workspace');
    section.setAttribute('aria-label', `${group.name}: ${plural(group.count, 'matching turn')}`);
    const head = el('div', 'workspace-head');
    head.append(el('span', 'codicon codicon-folder'), el('span', 'workspace-name', ` ${group.name}`));
    head.append(
      el(
        'span',
        'meta',
        ` · ${plural(group.count, 'matching turn')}${group.worktree && group.worktree !== group.project ? ` · worktree of ${group.project}` : ''}`,
      ),
    );
    section.append(head);
    if (group.worktree) section.append(el('div', 'meta', group.worktree));
    for (const hit of group.hits) section.append(this.exchange(hit));
    if (group.count > group.hits.length)
      section.append(el('div', 'meta narrow', `Top ${group.hits.length} of ${plural(group.count, 'matching turn')} shown: add a word to narrow it.`));
    return section;
  }

  private exchange(hit: WorkspaceHit): HTMLElement {
    const item = el('div', 'exchange');
    item.tabIndex = 0;
    item.setAttribute('role', 'option');
    item.append(el('div', 'meta', `${hit.date.slice(0, 10)} · ${hit.topic}`));
    if (hit.user) {
      const user = el('div', 'snippet exchange-user');
      user.append(el('span', 'codicon codicon-account'), document.createTextNode(' '));
      appendMarked(user, hit.user, hit.userHighlights);
      item.append(user);
    }
    if (hit.reply) {
      const reply = el('div', 'snippet exchange-reply');
      reply.append(el('span', 'codicon codicon-hubot'), document.createTextNode(' '));
      appendMarked(reply, hit.reply, hit.replyHighlights);
      item.append(reply);
    }
    if (hit.match) {
      const match = el('div', 'snippet exchange-match');
      match.append(
        el('span', `codicon codicon-${hit.matchKind === 'file' ? 'file' : hit.matchKind === 'thinking' ? 'lightbulb' : 'terminal'}`),
        document.createTextNode(' '),
      );
      appendMarked(match, hit.match, hit.matchHighlights);
      item.append(match);
    }
    item.addEventListener('click', () => this.open(hit));
    item.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      this.open(hit);
      e.preventDefault();
    });
    return item;
  }
}

function failedSection(failed: FailedWorkspace): HTMLElement {
  const section = el('section', 'workspace failed');
  const head = el('div', 'workspace-head');
  head.append(el('span', 'codicon codicon-warning'), el('span', 'workspace-name', ` ${failed.name}`));
  section.append(head, el('div', 'meta', `Could not be searched: ${failed.reason}.`));
  return section;
}
