/** Session Search: Push to Team Archive — this machine's sessions of sessionSearch.team.projects, masked, with progress. */
import * as vscode from 'vscode';
import type { IndexClient } from '../client.js';
import { errorMessage } from '../../core/errors.js';
import { TeamPushRequest } from '../../protocol.js';
import { serverSettings } from '../settings.js';

export async function teamPush(client: IndexClient): Promise<void> {
  const team = serverSettings().team;
  if (!team) {
    const open = await vscode.window.showInformationMessage(
      'No team archive is set up: set Session Search › Team: Database in your user settings.',
      'Open Settings',
    );
    if (open) await vscode.commands.executeCommand('workbench.action.openSettings', 'sessionSearch.team');
    return;
  }
  if (!team.projects.length) {
    const open = await vscode.window.showInformationMessage(
      'Nothing is pushed until you choose projects: add folder names to Session Search › Team: Projects.',
      'Open Settings',
    );
    if (open) await vscode.commands.executeCommand('workbench.action.openSettings', 'sessionSearch.team.projects');
    return;
  }
  try {
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Session Search: pushing to the team archive' }, () =>
      client.sendRequest(TeamPushRequest),
    );
    void vscode.window.showInformationMessage(
      `Team archive: ${r.written} session${r.written === 1 ? '' : 's'} written, ${r.appended} appended, ${r.unchanged} unchanged (${r.role}@${r.machine}).`,
    );
  } catch (err) {
    void vscode.window.showErrorMessage(`Session Search: the push failed: ${errorMessage(err)}`);
  }
}
