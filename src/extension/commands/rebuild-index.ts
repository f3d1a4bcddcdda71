/** Session Search: Rebuild Index — every root read again from scratch, with progress. */
import * as vscode from 'vscode';
import type { IndexClient } from '../client.js';
import { RebuildRequest } from '../../protocol.js';

export async function rebuildIndex(client: IndexClient, refresh: () => Promise<void>): Promise<void> {
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Session Search: rebuilding the index' }, () =>
    client.sendRequest(RebuildRequest),
  );
  await refresh();
}
