/**
 * The panel's Decisions section: what each project's sessions settled, newest first, each linked to its turn; one a
 * later decision replaced (the same library, tool or name settled again) is shown under it, marked so.
 */
import type { DecisionsResponse } from '../src/core/answer/decision-list.js';
import type { FromPanel } from '../src/webview-protocol.js';
import { el } from './highlight.js';
import { toggledSection } from './controls.js';

/** The Decisions button and its section: the button asks for them (of the project filter's project, when one is set). */
export function decisionsSection(send: (m: FromPanel) => void, project: () => string | undefined): { button: HTMLElement; section: HTMLElement } {
  return toggledSection('decisions', 'Decisions', () => send({ type: 'decisions', project: project() || undefined }));
}

export function renderDecisions(section: HTMLElement, value: DecisionsResponse, send: (m: FromPanel) => void): void {
  section.replaceChildren(el('h3', undefined, 'Decisions'));
  if (!value.projects.length)
    section.append(
      el('div', 'meta', 'No decisions found yet: they come from prompts and replies that settle something ("let\'s go with…", "use X instead of Y").'),
    );
  for (const { project, decisions } of value.projects) {
    const group = el('div', 'decision-project');
    group.append(el('h4', undefined, project || 'No project folder'));
    for (const d of decisions) {
      const row = el('div', d.replacedBy ? 'decision replaced' : 'decision');
      row.tabIndex = 0;
      row.setAttribute('role', 'link');
      row.append(el('div', 'decision-text', d.text));
      const meta = `${d.date.slice(0, 10)} · ${d.source} · ${d.topic}${d.replacedBy ? ' · replaced by a later decision above' : ''}`;
      row.append(el('div', 'meta', meta));
      const open = (): void => send({ type: 'openContext', sessionId: d.sessionId, topic: d.topic, turnId: d.turn, query: '' });
      row.addEventListener('click', open);
      row.addEventListener('keydown', (e) => e.key === 'Enter' && open());
      group.append(row);
    }
    section.append(group);
  }
}
