/**
 * The reader: a session as a read-only markdown document (`session-search:` URIs), opened at the turn that matched.
 * Text comes masked from the engine; nothing is written anywhere.
 */
import * as vscode from 'vscode';
import type { IndexClient } from './client.js';
import { ReadRequest } from '../protocol.js';
import { SESSION_SCHEME, sessionIdFromQuery, sessionUriParts } from '../session-uri.js';

export const SCHEME = SESSION_SCHEME;

export function sessionUri(id: string, title: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SESSION_SCHEME, ...sessionUriParts(id, title) });
}

export function idFromUri(uri: vscode.Uri): string {
  return sessionIdFromQuery(uri.query);
}

export class SessionDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly client: IndexClient) {}

  /** The whole session as markdown, every turn under its role, read page by page. */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const docid = idFromUri(uri);
    let text = '';
    for (let offset: number | null = 0; offset !== null;) {
      const page: Awaited<ReturnType<typeof this.readPage>> = await this.readPage(docid, offset);
      if (!page.found) return `Session ${docid} is no longer in the index.`;
      text += page.text;
      offset = page.next_offset;
    }
    return text;
  }

  private readPage(docid: string, offset: number) {
    return this.client.sendRequest(ReadRequest, { docid, offset });
  }
}

/** Opens a session; with a turn id, the cursor lands on that turn, on the matched word `marked` in it when given. */
export async function openSession(client: IndexClient, id: string, title: string, turnId?: string, marked?: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(sessionUri(id, title));
  const editor = await vscode.window.showTextDocument(doc, { preview: true });
  if (!turnId) return;
  const turn = await client.sendRequest(ReadRequest, { docid: turnId, offset: 0 });
  const probe = turn.text
    .split('\n')
    .find((l) => l.trim().length > 3)
    ?.trim()
    .slice(0, 80);
  if (!probe) return;
  const text = doc.getText();
  const start = text.indexOf(probe);
  if (start < 0) return;
  let from = start;
  let to = start;
  const at = marked
    ? text
        .slice(start, start + turn.text.length + 200)
        .toLowerCase()
        .indexOf(marked.toLowerCase())
    : -1;
  if (at >= 0) {
    from = start + at;
    to = from + marked!.length;
  }
  editor.selection = new vscode.Selection(doc.positionAt(from), doc.positionAt(to));
  editor.revealRange(new vscode.Range(doc.positionAt(from), doc.positionAt(to)), vscode.TextEditorRevealType.InCenter);
}
