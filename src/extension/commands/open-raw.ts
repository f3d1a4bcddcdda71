/** Session Search: Open Raw Transcript — the tool's own file, read-only preview; a deleted one says where the copy is. */
import * as vscode from 'vscode';
import type { TreeSession } from '../../protocol.js';

export async function openRawTranscript(session: TreeSession | undefined): Promise<void> {
  if (!session) return;
  if (session.sourceDeleted)
    return void vscode.window.showWarningMessage('The tool deleted this transcript; open the session itself to read the archived copy.');
  await vscode.window.showTextDocument(vscode.Uri.file(session.file), { preview: true });
}
