/** Session Search: Add Tag… — tags the session picked in the tree (or given by id), kept in the data folder. */
import * as vscode from 'vscode';
import type { IndexClient } from '../client.js';
import type { TagResponse } from '../../core/contracts.js';
import { normalizeTag } from '../../core/store/tags.js';
import { TagRequest } from '../../protocol.js';

/** The reason a typed tag would be refused, or undefined when it is fine (checked as the person types). */
function problem(value: string): string | undefined {
  try {
    value
      .split(',')
      .filter((t) => t.trim())
      .forEach(normalizeTag);
    return value.trim() ? undefined : 'Type a tag (several: separate them with commas).';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export async function addTag(client: IndexClient, id: string | undefined, refresh: () => Promise<void>, given?: string): Promise<TagResponse | undefined> {
  if (!id) return undefined;
  const typed =
    given ??
    (await vscode.window.showInputBox({
      title: 'Add Tag',
      prompt: 'Tags for this session, separated by commas (e.g. decision, postgres-migration). Kept in the data folder, never in the transcript.',
      validateInput: problem,
    }));
  if (!typed?.trim()) return undefined;
  const tags = typed.split(',').filter((t) => t.trim());
  try {
    const response = await client.sendRequest(TagRequest, { id, tags });
    await refresh();
    return response;
  } catch (err) {
    void vscode.window.showErrorMessage(`Session Search: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}
