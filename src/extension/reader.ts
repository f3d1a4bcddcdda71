/**
 * The reader: a session as a read-only markdown document (`session-search:` URIs), opened at the turn that matched.
 * Text comes masked from the index server; nothing is written anywhere.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { GetRequest, ReadRequest } from '../protocol.js';

export const SCHEME = 'session-search';

export function sessionUri(id: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: `/${encodeURIComponent(id)}.md` });
}

export function idFromUri(uri: vscode.Uri): string {
  return decodeURIComponent(uri.path.replace(/^\//, '').replace(/\.md$/, ''));
}

export class SessionDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly client: LanguageClient) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const response = await this.client.sendRequest(GetRequest, { name: idFromUri(uri), format: 'json' });
    return response.session.content;
  }
}

/** Opens a session; with a turn id, the cursor lands on the first line of that turn. */
export async function openSession(client: LanguageClient, id: string, turnId?: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(sessionUri(id));
  const editor = await vscode.window.showTextDocument(doc, { preview: true });
  if (!turnId) return;
  const turn = await client.sendRequest(ReadRequest, { docid: turnId, offset: 0 });
  const probe = turn.text.split('\n').find((l) => l.trim().length > 3)?.trim().slice(0, 80);
  if (!probe) return;
  const at = doc.getText().indexOf(probe);
  if (at < 0) return;
  const position = doc.positionAt(at);
  editor.selection = new vscode.Selection(position, position);
  editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenter);
}
