/**
 * Session Search: Show Engine Status — the data folder's engine as `session-search engine` shows it (sessions, memory,
 * clients, when it stops), or why this window runs an index server of its own; with the engine's log a click away.
 */
import * as vscode from 'vscode';
import type { IndexClient } from '../client.js';
import { describeEngine } from '../../engine/about-text.js';

export async function showEngineStatus(client: IndexClient, showLog: () => void): Promise<void> {
  const about = await client.about();
  if ('ownProcess' in about) {
    const choice = await vscode.window.showInformationMessage(
      'Session Search: this window has an index server of its own',
      { modal: true, detail: `No engine of the data folder serves it: ${about.ownProcess}.` },
      'Show Log',
    );
    if (choice === 'Show Log') showLog();
    return;
  }
  const [head, ...lines] = describeEngine(about.engine).trimEnd().split('\n');
  const choice = await vscode.window.showInformationMessage(
    `Session Search: ${head}`,
    { modal: true, detail: lines.map((l) => l.trim().replace(/: +/, ': ')).join('\n') },
    'Open Engine Log',
  );
  if (choice === 'Open Engine Log' && 'log' in about.engine) await vscode.window.showTextDocument(vscode.Uri.file(about.engine.log));
}
