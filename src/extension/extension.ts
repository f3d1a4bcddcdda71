/** Extension entry: registers every contribution; anything heavy (the index) lives in other processes. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { claudeAddCommand, writeLauncher } from './claude-launcher.js';
import { mcpServerArgs, registerMcpProvider } from './mcp-provider.js';

function dataFolder(): string {
  const configured = vscode.workspace.getConfiguration('sessionSearch').get<string>('dataFolder');
  return configured || process.env.SESSION_SEARCH_HOME || join(homedir(), '.session-search');
}

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Session Search', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(registerMcpProvider(context, dataFolder));
  context.subscriptions.push(
    vscode.commands.registerCommand('sessionSearch.copyClaudeMcpCommand', async () => {
      try {
        const launcher = await writeLauncher(dataFolder(), process.execPath, mcpServerArgs(context, undefined)[0]);
        const command = claudeAddCommand(launcher);
        await vscode.env.clipboard.writeText(command);
        void vscode.window.showInformationMessage(`Copied: ${command}`);
      } catch (err) {
        log.error(`writing the Claude Code launcher failed: ${err instanceof Error ? err.message : String(err)}`);
        void vscode.window.showErrorMessage('Session Search could not write its Claude Code launcher; see the Session Search log.');
      }
    }),
    vscode.commands.registerCommand('sessionSearch.showLog', () => log.show()),
  );
}

export function deactivate(): void {}
