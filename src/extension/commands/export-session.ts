/** Session Search: Export Session… — a session as Markdown, a self-contained HTML page or JSON, saved where the user says. */
import * as vscode from 'vscode';
import type { IndexClient } from '../client.js';
import type { ExportFormat } from '../../core/model.js';
import { ExportRequest } from '../../protocol.js';

const FORMATS: { label: string; detail: string; format: ExportFormat; ext: string }[] = [
  { label: 'Markdown', detail: 'Headings per turn, tool output in code blocks', format: 'md', ext: 'md' },
  { label: 'HTML page', detail: 'Self-contained and styled, readable offline, turns collapsible; no script', format: 'html', ext: 'html' },
  { label: 'JSON', detail: 'Every turn with its role, kind, tool and time', format: 'json', ext: 'json' },
];

/** Given: skip the questions (for tests and other commands). Returns where the file was written. */
export async function exportSession(
  client: IndexClient,
  id: string | undefined,
  given?: { format: ExportFormat; uri: vscode.Uri; redactHome?: boolean },
): Promise<vscode.Uri | undefined> {
  if (!id) return void vscode.window.showWarningMessage('Session Search: choose a session to export (in the Sessions view or the reader).');
  let format = given?.format;
  let redactHome = given?.redactHome ?? false;
  let uri = given?.uri;
  if (!given) {
    const pick = await vscode.window.showQuickPick(FORMATS, { title: 'Export Session: format' });
    if (!pick) return undefined;
    format = pick.format;
    const paths = await vscode.window.showQuickPick(
      [
        { label: 'Keep paths as they are', redact: false },
        { label: 'Replace my home folder and user name in paths', detail: '/home/you/project → ~/project', redact: true },
      ],
      { title: 'Export Session: paths' },
    );
    if (!paths) return undefined;
    redactHome = paths.redact;
    const name = id
      .replace(/^[^:]+:/, '')
      .replace(/[^\w.-]+/g, '-')
      .slice(0, 80);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    uri = await vscode.window.showSaveDialog({
      title: 'Export Session',
      defaultUri: folder && vscode.Uri.joinPath(folder, `${name}.${pick.ext}`),
      filters: { [pick.label]: [pick.ext] },
    });
    if (!uri) return undefined;
  }
  const { text } = await client.sendRequest(ExportRequest, { id, format: format!, redactHome });
  await vscode.workspace.fs.writeFile(uri!, new TextEncoder().encode(text));
  if (!given)
    void vscode.window.showInformationMessage(`Session Search: exported to ${uri!.fsPath}`, 'Open').then((choice) => {
      if (choice === 'Open') void vscode.commands.executeCommand('vscode.open', uri);
    });
  return uri;
}
