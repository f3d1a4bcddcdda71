/** Session Search: Copy `claude mcp add` Command — writes the launcher Claude Code runs and copies the command. */
import { errorMessage } from '../../core/errors.js';
import * as vscode from 'vscode';
import { claudeAddCommand, writeLauncher } from '../claude-launcher.js';
import { mcpServerPath } from '../mcp-provider.js';
import { dataFolder } from '../settings.js';

export async function copyClaudeMcpCommand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<void> {
  try {
    const launcher = await writeLauncher(dataFolder(), process.execPath, mcpServerPath(context));
    const command = claudeAddCommand(launcher);
    await vscode.env.clipboard.writeText(command);
    void vscode.window.showInformationMessage(`Copied: ${command}`);
  } catch (err) {
    log.error(`writing the Claude Code launcher failed: ${errorMessage(err)}`);
    void vscode.window.showErrorMessage('Session Search could not write its Claude Code launcher; see the Session Search log.');
  }
}
