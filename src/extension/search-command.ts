/** Session Search: Search Sessions… — a QuickPick that searches as you type and opens the reader at the hit. */
import { errorMessage } from '../core/errors.js';
import * as vscode from 'vscode';
import type { IndexClient } from './client.js';
import type { SearchResult } from '../core/contracts.js';
import { SearchRequest } from '../protocol.js';
import { openSession } from './reader.js';
import { SOURCE_ICONS } from './tree.js';

interface ResultItem extends vscode.QuickPickItem {
  result: SearchResult;
}

const DEBOUNCE_MS = 60;

export async function searchSessions(client: IndexClient): Promise<void> {
  const pick = vscode.window.createQuickPick<ResultItem>();
  pick.placeholder = 'Search every session: words, "a phrase", -exclude';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let timer: NodeJS.Timeout | undefined;
  let generation = 0;
  const run = async (query: string): Promise<void> => {
    const mine = ++generation;
    if (!query.trim()) {
      pick.items = [];
      pick.title = undefined;
      pick.busy = false;
      return;
    }
    pick.busy = true;
    try {
      const response = await client.sendRequest(SearchRequest, { query, limit: 50 });
      if (mine !== generation) return; // a newer keystroke won
      const { count, matched } = response;
      pick.title = matched ? `${count} of ${matched.toLocaleString('en-US')} sessions` : `${count} session${count === 1 ? '' : 's'}`;
      pick.items = response.results.map((r) => ({
        label: `$(${SOURCE_ICONS[r.source] ?? 'comment'}) ${r.topic}`,
        description: `${r.date.slice(0, 10)} · ${r.source}${r.project ? ` · ${r.project}` : ''}`,
        detail: r.matchedSnippets[0] ?? '',
        alwaysShow: true,
        result: r,
      }));
    } catch (err) {
      pick.items = [];
      pick.placeholder = `Search failed: ${errorMessage(err)}`;
    } finally {
      if (mine === generation) pick.busy = false;
    }
  };
  pick.onDidChangeValue((value) => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(value), DEBOUNCE_MS);
  });
  pick.onDidAccept(() => {
    const chosen = pick.selectedItems[0]?.result;
    pick.hide();
    if (!chosen) return;
    // the reader lands on a word the engine marked in the first snippet: the longest, usually the rarest
    const [from, to] = (chosen.snippetHighlights[0] ?? []).reduce<[number, number]>((best, r) => (r[1] - r[0] > best[1] - best[0] ? r : best), [0, 0]);
    void openSession(client, chosen.id, chosen.topic, chosen.snippetTurnIds[0], chosen.matchedSnippets[0]?.slice(from, to));
  });
  pick.onDidHide(() => {
    clearTimeout(timer);
    pick.dispose();
  });
  pick.show();
}
