/** Session Search: Export Results… — the panel's current results (up to 100) as Markdown or JSON, saved where the user says. */
import * as vscode from 'vscode';
import type { IndexClient } from '../client.js';
import { exportResults as format, type ResultsFormat } from '../../core/export-results.js';
import { SearchRequest } from '../../protocol.js';
import type { PanelFilters } from '../../webview-protocol.js';

export async function exportResults(
  client: IndexClient,
  query: string | undefined,
  filters: PanelFilters = {},
  given?: { format: ResultsFormat; uri: vscode.Uri },
): Promise<vscode.Uri | undefined> {
  if (!query?.trim()) return void vscode.window.showWarningMessage('Session Search: search first, then export the results.');
  let chosen = given?.format;
  let uri = given?.uri;
  if (!given) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: 'Markdown', detail: 'A list: title, source, date, project, session id, snippets', format: 'md' as const },
        { label: 'JSON', detail: 'The search answer as the MCP server gives it', format: 'json' as const },
      ],
      { title: 'Export Results: format' },
    );
    if (!pick) return undefined;
    chosen = pick.format;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `sessions-${query.replace(/[^\w]+/g, '-').slice(0, 40)}.${pick.format}`;
    uri = await vscode.window.showSaveDialog({
      title: 'Export Results',
      defaultUri: folder && vscode.Uri.joinPath(folder, name),
      filters: { [pick.label]: [pick.format] },
    });
    if (!uri) return undefined;
  }
  const response = await client.sendRequest(SearchRequest, { query, ...filters, limit: 100 });
  await vscode.workspace.fs.writeFile(uri!, new TextEncoder().encode(format(response, chosen!)));
  if (!given) void vscode.window.showInformationMessage(`Session Search: ${response.count} results exported to ${uri!.fsPath}`);
  return uri;
}
