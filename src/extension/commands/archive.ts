/** Session Search: Show Archive Size, and Purge Archive… (after a modal confirmation). */
import * as vscode from 'vscode';
import type { IndexClient } from '../client.js';
import { ArchiveSizeRequest, PurgeArchiveRequest, type ArchiveSize } from '../../protocol.js';

const describe = (size: ArchiveSize): string =>
  `${size.entries.toLocaleString()} transcript files, ${(size.bytes / 1048576).toFixed(1)} MB in ${size.dir}; index snapshot ${(size.snapshotBytes / 1048576).toFixed(1)} MB`;

export async function showArchiveSize(client: IndexClient): Promise<void> {
  const size = await client.sendRequest(ArchiveSizeRequest);
  if (!size.enabled) return void vscode.window.showInformationMessage('Session Search: the archive is turned off (setting sessionSearch.archive.enabled).');
  void vscode.window.showInformationMessage(`Session Search archive: ${describe(size)}.`);
}

export async function purgeArchive(client: IndexClient): Promise<boolean> {
  const size = await client.sendRequest(ArchiveSizeRequest);
  if (!size.enabled) {
    void vscode.window.showInformationMessage('Session Search: the archive is turned off; there is nothing to purge.');
    return false;
  }
  const choice = await vscode.window.showWarningMessage(
    `Delete the Session Search archive (${describe(size)})?`,
    { modal: true, detail: 'Sessions whose transcript the tool has already deleted will no longer be searchable. Transcripts still on disk stay indexed.' },
    'Delete Archive',
  );
  if (choice !== 'Delete Archive') return false;
  const after = await client.sendRequest(PurgeArchiveRequest);
  void vscode.window.showInformationMessage(`Session Search: archive deleted (${describe(after)}).`);
  return true;
}
