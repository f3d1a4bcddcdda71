/** Extension entry: registers every contribution; indexing lives in the index server's own process. */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ChangedNotification, RebuildRequest, TreeRequest, type IndexProgress } from '../protocol.js';
import { claudeAddCommand, writeLauncher } from './claude-launcher.js';
import { startIndexServer } from './client.js';
import { registerLanguageModelTools } from './lm-tools.js';
import { mcpProvider, mcpServerArgs, registerMcpProvider } from './mcp-provider.js';
import { SearchPanel } from './panel.js';
import { openSession, SCHEME, SessionDocuments } from './reader.js';
import { searchSessions } from './search-command.js';
import { dataFolder, restrictedNote } from './settings.js';
import { resumeCommand, SessionTree, type Grouping } from './tree.js';
import { IndexStatus } from './status.js';
import { cancelIndexing } from './commands/cancel-indexing.js';
import { purgeArchive, showArchiveSize } from './commands/archive.js';

/** What activate returns: used by other extensions and by the extension-host tests. */
export interface SessionSearchApi {
  mcpServerDefinitions(): vscode.ProviderResult<vscode.McpStdioServerDefinition[]>;
}

export async function activate(context: vscode.ExtensionContext): Promise<SessionSearchApi> {
  const log = vscode.window.createOutputChannel('Session Search', { log: true });
  const tree = new SessionTree();
  const status = new IndexStatus();
  const mcpChanged = new vscode.EventEmitter<void>();
  const mcp = mcpProvider(context, dataFolder, mcpChanged);
  context.subscriptions.push(log, status, registerMcpProvider(mcp, mcpChanged));

  const progress = (p: IndexProgress): void => {
    status.update(p);
    if (p.state !== 'indexing') void refresh();
  };
  const client: LanguageClient = startIndexServer(context, log, progress);
  const refresh = async (): Promise<void> => {
    try {
      tree.setSessions(await client.sendRequest(TreeRequest, {}));
      await vscode.commands.executeCommand('setContext', 'sessionSearch.empty', tree.count === 0);
    } catch (err) {
      log.error(`refreshing the tree failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  let pending: NodeJS.Timeout | undefined;
  client.onNotification(ChangedNotification, () => {
    clearTimeout(pending);
    pending = setTimeout(() => void refresh(), 300);
  });
  context.subscriptions.push({ dispose: () => void client.stop() });

  const view = vscode.window.createTreeView('sessionSearch.sessions', { treeDataProvider: tree, showCollapseAll: true });
  view.message = restrictedNote();
  const find = (id: unknown): string | undefined => (typeof id === 'string' ? id : (id as { session?: { id: string } } | undefined)?.session?.id);
  const sessionOf = (arg: unknown) => tree.find(find(arg));
  context.subscriptions.push(
    view,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, new SessionDocuments(client)),
    registerLanguageModelTools(client),
    vscode.commands.registerCommand('sessionSearch.search', () => searchSessions(client)),
    vscode.commands.registerCommand('sessionSearch.openPanel', () => SearchPanel.show(context, client)),
    vscode.commands.registerCommand('sessionSearch.open', (arg: unknown) => {
      const s = sessionOf(arg);
      if (s) return openSession(client, s.id, s.topic);
    }),
    vscode.commands.registerCommand('sessionSearch.openRaw', async (arg: unknown) => {
      const s = sessionOf(arg);
      if (!s) return;
      if (s.sourceDeleted) return void vscode.window.showWarningMessage('The tool deleted this transcript; open the session itself to read the archived copy.');
      await vscode.window.showTextDocument(vscode.Uri.file(s.file), { preview: true });
    }),
    vscode.commands.registerCommand('sessionSearch.copyId', async (arg: unknown) => {
      const id = find(arg);
      if (id) await vscode.env.clipboard.writeText(id);
    }),
    vscode.commands.registerCommand('sessionSearch.copyResumeCommand', async (arg: unknown) => {
      const s = sessionOf(arg);
      const command = s && resumeCommand(s);
      if (command) await vscode.env.clipboard.writeText(command);
    }),
    ...(['date', 'project', 'source'] as Grouping[]).map((g) =>
      vscode.commands.registerCommand(`sessionSearch.groupBy${g[0].toUpperCase()}${g.slice(1)}`, () => tree.setGrouping(g)),
    ),
    vscode.commands.registerCommand('sessionSearch.refresh', () => refresh()),
    vscode.commands.registerCommand('sessionSearch.rebuildIndex', async () => {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Session Search: rebuilding the index' }, () =>
        client.sendRequest(RebuildRequest),
      );
      await refresh();
    }),
    vscode.commands.registerCommand('sessionSearch.showLog', () => log.show()),
    vscode.commands.registerCommand('sessionSearch.cancelIndexing', () => cancelIndexing(client)),
    vscode.commands.registerCommand('sessionSearch.showArchiveSize', () => showArchiveSize(client)),
    vscode.commands.registerCommand('sessionSearch.purgeArchive', async () => {
      if (await purgeArchive(client)) await refresh();
    }),
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
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      // Trusted now: the server starts again with the workspace's own histories among its roots.
      view.message = restrictedNote();
      await client.restart();
      await refresh();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('sessionSearch.sources') || e.affectsConfiguration('sessionSearch.dataFolder') || e.affectsConfiguration('sessionSearch.archive')) {
        void vscode.window.showInformationMessage('Session Search: reload the window to apply the new folders.', 'Reload').then((choice) => {
          if (choice) void vscode.commands.executeCommand('workbench.action.reloadWindow');
        });
      }
    }),
  );
  await vscode.commands.executeCommand('setContext', 'sessionSearch.grouping', 'date');
  await client.start();
  if (vscode.workspace.getConfiguration('sessionSearch').get<boolean>('showOnStartup', false)) void vscode.commands.executeCommand('sessionSearch.sessions.focus');
  return { mcpServerDefinitions: () => mcp.provideMcpServerDefinitions(new vscode.CancellationTokenSource().token) };
}

export function deactivate(): void {}
