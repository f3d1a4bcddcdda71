/**
 * Extension entry: connects to the data folder's engine (indexing lives in its own process; client.ts), registers the
 * views and providers, and the commands from one table (`createCommands`). Everything it creates goes with the
 * extension: `deactivate` returns the promise of closing the connection (or of stopping a window's own index server,
 * which writes its last snapshot before the host exits).
 */
import { errorMessage } from '../core/errors.js';
import * as vscode from 'vscode';
import { ChangedNotification, EmbeddingsRequest, TreeRequest, type IndexProgress } from '../protocol.js';
import { IndexClient } from './client.js';
import { purgeArchive, showArchiveSize } from './commands/archive.js';
import { showEngineStatus } from './commands/engine-status.js';
import { cancelIndexing } from './commands/cancel-indexing.js';
import { copyClaudeMcpCommand } from './commands/claude-mcp.js';
import { openRawTranscript } from './commands/open-raw.js';
import { rebuildIndex } from './commands/rebuild-index.js';
import { teamPush } from './commands/team-push.js';
import { importExport } from './commands/import-export.js';
import { addTag } from './commands/add-tag.js';
import { removeTag } from './commands/remove-tag.js';
import { Disposable } from './dispose.js';
import { registerLanguageModelTools } from './lm-tools.js';
import { mcpProvider, registerMcpProvider } from './mcp-provider.js';
import { SearchPanel } from './panel.js';
import { openSession, SCHEME, SessionDocuments } from './reader.js';
import { searchSessions } from './search-command.js';
import { dataFolder, restrictedNote, serverSettings } from './settings.js';
import { IndexStatus } from './status.js';
import { resumeCommand, SessionTree, type Grouping } from './tree.js';
import { exportSession } from './commands/export-session.js';
import { exportResults } from './commands/export-results.js';
import { whyThisCode } from './commands/why-this-code.js';
import { FileSessionsView } from './file-sessions.js';
import { LineHistory } from './line-history.js';
import type { PanelFilters } from '../webview-protocol.js';

/** What activate returns: used by other extensions and by the extension-host tests. */
export interface SessionSearchApi {
  mcpServerDefinitions(): vscode.ProviderResult<vscode.McpStdioServerDefinition[]>;
}

/** The running extension: its client of the engine (or of its own index server), the tree, the status bar item, and what they need. */
class SessionSearch extends Disposable {
  readonly log = this.register(vscode.window.createOutputChannel('Session Search', { log: true }));
  readonly tree = this.register(new SessionTree());
  readonly status = this.register(new IndexStatus());
  readonly mcpChanged = this.register(new vscode.EventEmitter<void>());
  readonly client: IndexClient;
  readonly fileSessions: FileSessionsView;
  readonly lineHistory: LineHistory;
  private refreshTimer: vscode.Disposable | undefined;
  private embeddingsTimer: vscode.Disposable | undefined;

  constructor(readonly context: vscode.ExtensionContext) {
    super();
    this.client = this.register(new IndexClient(context, this.log, (p) => this.progress(p)));
    this.fileSessions = this.register(new FileSessionsView(this.client, this.log));
    this.lineHistory = this.register(new LineHistory(this.client));
    this.register(
      this.client.onNotification(ChangedNotification, () => {
        this.refreshSoon();
        this.fileSessions.indexChanged();
        this.lineHistory.indexChanged();
      }),
    );
  }

  private progress(p: IndexProgress): void {
    this.status.update(p);
    if (p.state !== 'indexing') void this.refresh();
    if (p.state !== 'indexing' && serverSettings().embed && !this.embeddingsTimer) this.watchEmbeddings();
    if (p.state === 'stopped')
      void vscode.window
        .showWarningMessage(`Session Search: indexing stopped, ${p.reason ?? 'before the end'}.`, 'Show Log')
        .then((pick) => pick && this.log.show());
  }

  /** While the user's model embeds the sessions, the status bar says how far it is (asked every few seconds until done). */
  private watchEmbeddings(): void {
    this.embeddingsTimer = this.registerTimeout(() => {
      void this.client.sendRequest(EmbeddingsRequest).then(
        (state) => {
          this.status.embeddings(state);
          this.embeddingsTimer = undefined;
          if (state && state.status !== 'ready') this.watchEmbeddings();
        },
        () => (this.embeddingsTimer = undefined),
      );
    }, 2_000);
  }

  /** Bursts of changes refresh the tree once. */
  private refreshSoon(): void {
    this.refreshTimer?.dispose();
    this.refreshTimer = this.registerTimeout(() => void this.refresh(), 300);
  }

  async refresh(): Promise<void> {
    try {
      this.tree.setSessions(await this.client.sendRequest(TreeRequest, this.teamScope ? { scope: 'team' } : {}));
      await vscode.commands.executeCommand('setContext', 'sessionSearch.empty', this.tree.count === 0);
    } catch (err) {
      this.log.error(`refreshing the tree failed: ${errorMessage(err)}`);
    }
  }

  /** Whether the tree shows the team archive's sessions too (kept across restarts). */
  get teamScope(): boolean {
    return !!serverSettings().team && this.context.globalState.get<boolean>('teamScope', false);
  }

  async setTeamScope(on: boolean): Promise<void> {
    await this.context.globalState.update('teamScope', on);
    await vscode.commands.executeCommand('setContext', 'sessionSearch.teamScope', on);
    await this.refresh();
  }

  /** A tree item, a session id, or a session object: the session the tree knows by that. */
  /** The session selected in the tree, for commands run from the palette. */
  selected: () => string | undefined = () => undefined;

  idOf(arg: unknown): string | undefined {
    if (arg === undefined) return this.selected();
    return typeof arg === 'string' ? arg : (arg as { session?: { id: string } } | undefined)?.session?.id;
  }

  sessionOf(arg: unknown) {
    return this.tree.find(this.idOf(arg));
  }

  track<T extends vscode.Disposable>(d: T): T {
    return this.register(d);
  }
}

/** Every command, by id: the one table `package.json` contributes and `activate` registers. */
function createCommands(app: SessionSearch): Record<string, (...args: unknown[]) => unknown> {
  const { client, context, tree } = app;
  const groupings = Object.fromEntries(
    (['date', 'project', 'source', 'tag'] as Grouping[]).map((g) => [`sessionSearch.groupBy${g[0].toUpperCase()}${g.slice(1)}`, () => tree.setGrouping(g)]),
  );
  return {
    'sessionSearch.search': () => searchSessions(client),
    'sessionSearch.openPanel': () => SearchPanel.show(context, client),
    'sessionSearch.open': (arg) => {
      const s = app.sessionOf(arg);
      if (s) return openSession(client, s.id, s.topic);
    },
    'sessionSearch.openRaw': (arg) => openRawTranscript(app.sessionOf(arg)),
    'sessionSearch.openTurn': (id, title, turn) =>
      typeof id === 'string' && openSession(client, id, String(title ?? id), typeof turn === 'string' ? turn : undefined),
    'sessionSearch.whyThisCode': () => whyThisCode(app.lineHistory),
    'sessionSearch.refreshFileSessions': () => app.fileSessions.refresh(),
    'sessionSearch.copyId': async (arg) => {
      const id = app.idOf(arg);
      if (id) await vscode.env.clipboard.writeText(id);
    },
    'sessionSearch.exportResults': (query, filters, given) =>
      exportResults(client, query as string | undefined, filters as PanelFilters | undefined, given as Parameters<typeof exportResults>[3]),
    'sessionSearch.exportSession': (arg, given) => exportSession(client, app.idOf(arg), given as Parameters<typeof exportSession>[2]),
    'sessionSearch.copyResumeCommand': async (arg) => {
      const s = app.sessionOf(arg);
      const command = s && resumeCommand(s);
      if (command) await vscode.env.clipboard.writeText(command);
    },
    'sessionSearch.addTag': (arg, given) => addTag(client, app.idOf(arg), () => app.refresh(), typeof given === 'string' ? given : undefined),
    'sessionSearch.removeTag': (arg, given) =>
      removeTag(client, app.sessionOf(arg), () => app.refresh(), Array.isArray(given) ? (given as string[]) : undefined),
    ...groupings,
    'sessionSearch.refresh': () => app.refresh(),
    'sessionSearch.rebuildIndex': () => rebuildIndex(client, () => app.refresh()),
    'sessionSearch.importExport': (path) => importExport(client, () => app.refresh(), typeof path === 'string' ? path : undefined),
    'sessionSearch.showLog': () => app.log.show(),
    'sessionSearch.cancelIndexing': () => cancelIndexing(client),
    'sessionSearch.showArchiveSize': () => showArchiveSize(client),
    'sessionSearch.showEngineStatus': () => showEngineStatus(client, () => app.log.show()),
    'sessionSearch.purgeArchive': async () => {
      if (await purgeArchive(client)) await app.refresh();
    },
    'sessionSearch.copyClaudeMcpCommand': () => copyClaudeMcpCommand(context, app.log),
    'sessionSearch.teamPush': () => teamPush(client),
    'sessionSearch.showTeamSessions': () => app.setTeamScope(true),
    'sessionSearch.hideTeamSessions': () => app.setTeamScope(false),
  };
}

let running: SessionSearch | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<SessionSearchApi> {
  const app = new SessionSearch(context);
  running = app;
  context.subscriptions.push(app);
  const { client, tree } = app;
  const mcp = mcpProvider(context, dataFolder, app.mcpChanged);
  app.track(registerMcpProvider(mcp, app.mcpChanged));
  const view = app.track(vscode.window.createTreeView('sessionSearch.sessions', { treeDataProvider: tree, showCollapseAll: true }));
  view.message = restrictedNote();
  const selectedSession = () => view.selection.map((n) => (n.kind === 'session' ? n.session.id : undefined)).find(Boolean);
  app.selected = selectedSession;
  app.track(view.onDidChangeSelection(() => void vscode.commands.executeCommand('setContext', 'sessionSearch.sessionSelected', !!selectedSession())));
  app.track(vscode.workspace.registerTextDocumentContentProvider(SCHEME, new SessionDocuments(client)));
  app.fileSessions.attach();
  if (vscode.workspace.getConfiguration('sessionSearch').get<boolean>('lineHistory.enabled', true))
    app.track(vscode.languages.registerHoverProvider({ scheme: 'file' }, app.lineHistory));
  app.track(registerLanguageModelTools(client));
  for (const [id, run] of Object.entries(createCommands(app))) app.track(vscode.commands.registerCommand(id, run));
  app.track(
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      // Trusted now: the server starts again with the workspace's own histories among its roots.
      view.message = restrictedNote();
      await client.restart();
      await app.refresh();
    }),
  );
  app.track(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (
        e.affectsConfiguration('sessionSearch.sources') ||
        e.affectsConfiguration('sessionSearch.dataFolder') ||
        e.affectsConfiguration('sessionSearch.archive') ||
        e.affectsConfiguration('sessionSearch.team') ||
        e.affectsConfiguration('sessionSearch.semantic') ||
        e.affectsConfiguration('sessionSearch.lineHistory')
      ) {
        void vscode.window.showInformationMessage('Session Search: reload the window to apply the new settings.', 'Reload').then((choice) => {
          if (choice) void vscode.commands.executeCommand('workbench.action.reloadWindow');
        });
      }
    }),
  );
  await vscode.commands.executeCommand('setContext', 'sessionSearch.grouping', 'date');
  await vscode.commands.executeCommand('setContext', 'sessionSearch.teamConfigured', !!serverSettings().team);
  await vscode.commands.executeCommand('setContext', 'sessionSearch.teamScope', app.teamScope);
  await client.start();
  if (vscode.workspace.getConfiguration('sessionSearch').get<boolean>('showOnStartup', false))
    void vscode.commands.executeCommand('sessionSearch.sessions.focus');
  return { mcpServerDefinitions: () => mcp.provideMcpServerDefinitions(new vscode.CancellationTokenSource().token) };
}

/** Closes the link to the engine (or stops the window's own index server, which writes its last snapshot) and lets everything else go; the host waits for the promise. */
export async function deactivate(): Promise<void> {
  const app = running;
  running = undefined;
  if (!app) return;
  try {
    await app.client.stop();
  } finally {
    app.dispose();
  }
}
