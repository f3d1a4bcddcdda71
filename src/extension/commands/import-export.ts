/**
 * Session Search: Import an Export… — ChatGPT's or Claude.ai's `conversations.json`, Gemini's Takeout
 * `MyActivity.json`, a Copilot Chat export or a SpecStory `.md`, picked in a dialog (or given by a caller): recorded in the data folder, read, and archived.
 */
import * as vscode from 'vscode';
import type { IndexClient } from '../client.js';
import { ImportRequest, type ImportResult } from '../../protocol.js';

export async function importExport(client: IndexClient, refresh: () => Promise<void>, given?: string): Promise<ImportResult | undefined> {
  let path = given;
  if (!path) {
    const picked = await vscode.window.showOpenDialog({
      title: 'Import an export into Session Search',
      openLabel: 'Import',
      canSelectFiles: true,
      canSelectFolders: true,
      canSelectMany: false,
      filters: { 'Exports (zip, conversations.json, MyActivity.json, Copilot Chat .json, SpecStory .md)': ['zip', 'json', 'md'] },
    });
    path = picked?.[0]?.fsPath;
  }
  if (!path) return undefined;
  try {
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Session Search: importing' }, () =>
      client.sendRequest(ImportRequest, { path: path! }),
    );
    await refresh();
    const message = result.added.length
      ? `Imported ${result.sessions} session${result.sessions === 1 ? '' : 's'} from ${result.added.map((r) => r.path).join(', ')}.`
      : 'That export is already imported.';
    if (!given) void vscode.window.showInformationMessage(message);
    return result;
  } catch (err) {
    void vscode.window.showErrorMessage(`Session Search: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}
