/**
 * The panel's Preferences section: what the sessions show about how the person works, by category, each with the
 * sessions it rests on (a link opens the reader at the turn) and an Edit button (a value set by hand wins).
 */
import type { PreferencesResponse } from '../src/core/contracts.js';
import type { FromPanel } from '../src/webview-protocol.js';
import { el } from './highlight.js';

export function renderPreferences(section: HTMLElement, value: PreferencesResponse, send: (m: FromPanel) => void): void {
  section.replaceChildren(el('h3', undefined, 'Your preferences'));
  const categories = Object.keys(value.preferences);
  section.append(
    el(
      'div',
      'meta',
      categories.length
        ? `Learned from ${value.extractedFrom} session${value.extractedFrom === 1 ? '' : 's'}; a value you set wins until you clear it. Agents read these with get_preferences.`
        : 'Nothing learned yet: preferences come from what you ask for ("always…", "prefer…") and the frameworks and test tools your sessions show.',
    ),
  );
  for (const category of categories) {
    const row = el('div', 'pref');
    row.dataset.category = category;
    const head = el('div', 'pref-head');
    head.append(el('strong', undefined, category.replace(/_/g, ' ')));
    if (value.manual.includes(category)) head.append(el('span', 'pref-manual', ' · set by hand'));
    const edit = document.createElement('vscode-button');
    edit.setAttribute('secondary', '');
    edit.textContent = 'Edit';
    edit.addEventListener('click', () => send({ type: 'editPreference', category, value: value.preferences[category] }));
    head.append(edit);
    row.append(head, el('div', 'pref-value', value.preferences[category]));
    for (const item of value.evidence[category] ?? []) {
      const line = el('div', 'pref-evidence meta', `${item.text} — ${item.sessions} session${item.sessions === 1 ? '' : 's'} `);
      for (const turn of item.turns) {
        const link = el('a', 'pref-turn', turn.slice(turn.indexOf(':') + 1, turn.indexOf(':') + 13));
        link.tabIndex = 0;
        link.title = turn;
        const sessionId = turn.slice(0, turn.lastIndexOf('#'));
        link.addEventListener('click', () => send({ type: 'openContext', sessionId, topic: sessionId, turnId: turn, query: '' }));
        line.append(link, document.createTextNode(' '));
      }
      row.append(line);
    }
    section.append(row);
  }
}
