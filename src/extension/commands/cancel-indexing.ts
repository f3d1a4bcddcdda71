/** Session Search: Cancel Indexing. What was read stays searchable; the rest is read on the next start. */
import * as vscode from 'vscode';
import type { IndexClient } from '../client.js';
import { CancelIndexingRequest } from '../../protocol.js';

export async function cancelIndexing(client: IndexClient): Promise<void> {
  const cancelled = await client.sendRequest(CancelIndexingRequest);
  if (!cancelled) void vscode.window.showInformationMessage('Session Search is not indexing.');
}
