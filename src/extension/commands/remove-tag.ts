/** Session Search: Remove Tag… — takes away tags a person gave a session (its own topics stay). */
import * as vscode from 'vscode';
import type { IndexClient } from '../client.js';
import type { TagResponse } from '../../core/contracts.js';
import { UntagRequest, type TreeSession } from '../../protocol.js';

export async function removeTag(
  client: IndexClient,
  session: TreeSession | undefined,
  refresh: () => Promise<void>,
  given?: string[],
): Promise<TagResponse | undefined> {
  if (!session) return undefined;
  const tags =
    given ??
    (await vscode.window.showQuickPick(session.userTags ?? [], {
      title: 'Remove Tag',
      canPickMany: true,
      placeHolder: 'The tags to remove from this session',
    }));
  if (!tags?.length) return undefined;
  const response = await client.sendRequest(UntagRequest, { id: session.id, tags });
  await refresh();
  return response;
}
