/**
 * Session Search: Open Search Panel — the webview host. The page itself is webview/panel.ts; this side answers its
 * typed messages from the engine. Strict Content-Security-Policy with a fresh nonce, scripts and styles only
 * from the bundle folder, and nothing posted once the panel is gone.
 */
import { errorMessage } from '../core/errors.js';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { IndexClient } from './client.js';
import { SOURCE_IDS } from '../core/model.js';
import {
  SearchRequest,
  SearchWorkspacesRequest,
  WorkspaceAnsweredNotification,
  TreeRequest,
  TurnsRequest,
  DecisionsRequest,
  PreferencesRequest,
  UpdatePreferencesRequest,
} from '../protocol.js';
import { CONTEXT_TURNS, MAX_RESULTS, MORE_TURNS, RESULTS, type FromPanel, type PanelFilters, type ToPanel } from '../webview-protocol.js';
import { Disposable } from './dispose.js';
import { serverSettings } from './settings.js';

interface ReaderState {
  sessionId: string;
  topic: string;
  hitIndex: number;
  /** The query the reader was opened from: its matches are marked. */
  query: string;
  first: number;
  end: number;
  total: number;
}

export class SearchPanel extends Disposable {
  private static current: SearchPanel | undefined;
  private reader: ReaderState | undefined;

  static show(context: vscode.ExtensionContext, client: IndexClient): void {
    if (SearchPanel.current) {
      SearchPanel.current.panel.reveal();
      return;
    }
    const root = vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel('sessionSearch.panel', 'Session Search', vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [root],
    });
    SearchPanel.current = new SearchPanel(panel, root, client);
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    root: vscode.Uri,
    private readonly client: IndexClient,
  ) {
    super();
    panel.webview.html = this.html(root);
    this.register(panel.webview.onDidReceiveMessage((m: FromPanel) => void this.handle(m)));
    // each workspace's answer goes to the page as it comes; the page drops those of a search it replaced
    this.register(client.onNotification(WorkspaceAnsweredNotification, (a) => this.post({ type: 'workspace', ...a })));
    this.register(
      panel.onDidDispose(() => {
        SearchPanel.current = undefined;
        this.dispose();
      }),
    );
  }

  private post(message: ToPanel): void {
    if (!this.isDisposed) void this.panel.webview.postMessage(message);
  }

  private async searchWorkspaces(searchId: number, query: string, filters: PanelFilters): Promise<void> {
    const started = Date.now();
    try {
      const summary = await this.client.sendRequest(SearchWorkspacesRequest, { searchId, query, ...filters });
      this.post({ type: 'workspacesDone', searchId, summary, tookMs: Date.now() - started });
    } catch (err) {
      this.post({ type: 'workspacesDone', searchId, error: errorMessage(err), tookMs: Date.now() - started });
    }
  }

  private async handle(m: FromPanel): Promise<void> {
    try {
      switch (m.type) {
        case 'ready':
          this.post({ type: 'init', sources: [...SOURCE_IDS], team: !!serverSettings().team });
          break;
        case 'search': {
          if (!m.query.trim()) return this.post({ type: 'results', query: m.query, results: [], count: 0, tookMs: 0 });
          // the workspace view (this machine's) streams beside the ranked sessions
          if (m.limit === undefined && m.query.trim().length >= 2 && m.filters.scope !== 'team') void this.searchWorkspaces(m.searchId, m.query, m.filters);
          const started = Date.now();
          const limit = Math.min(MAX_RESULTS, Math.max(RESULTS, Math.floor(Number(m.limit) || 0)));
          const response = await this.client.sendRequest(SearchRequest, { query: m.query, ...m.filters, limit });
          this.post({
            type: 'results',
            query: m.query,
            results: response.results,
            count: response.count,
            matched: response.matched,
            tookMs: Date.now() - started,
            indexing: response.indexing,
            alsoMatched: response.alsoMatched,
            note: response.note,
            mode: response.mode,
            teamNotice: response.teamNotice,
          });
          break;
        }
        case 'openContext': {
          const hitIndex = Number(m.turnId.slice(m.turnId.lastIndexOf('#') + 1)) || 0;
          this.reader = {
            sessionId: m.sessionId,
            topic: m.topic,
            hitIndex,
            query: m.query,
            first: Math.max(0, hitIndex - CONTEXT_TURNS),
            end: hitIndex + CONTEXT_TURNS + 1,
            total: 0,
          };
          await this.sendContext();
          break;
        }
        case 'more':
          if (!this.reader) return;
          if (m.direction === 'earlier') this.reader.first = Math.max(0, this.reader.first - MORE_TURNS);
          else this.reader.end = Math.min(this.reader.total, this.reader.end + MORE_TURNS);
          await this.sendContext();
          break;
        case 'openRaw':
          await this.openRaw(m.sessionId, m.line);
          break;
        case 'exportResults':
          await vscode.commands.executeCommand('sessionSearch.exportResults', m.query, m.filters);
          break;
        case 'export':
          await vscode.commands.executeCommand('sessionSearch.exportSession', m.sessionId);
          break;
        case 'preferences':
          this.post({ type: 'preferences', value: await this.client.sendRequest(PreferencesRequest, {}) });
          break;
        case 'decisions':
          this.post({ type: 'decisions', value: await this.client.sendRequest(DecisionsRequest, { project: m.project }) });
          break;
        case 'editPreference': {
          const typed = await vscode.window.showInputBox({
            title: `Preference: ${m.category}`,
            value: m.value,
            prompt: 'Set by hand, it wins over what was learned; leave empty to go back to the learned value.',
          });
          if (typed === undefined) break;
          const value = await this.client.sendRequest(UpdatePreferencesRequest, { preferences: { [m.category]: typed.trim() || null } });
          this.post({ type: 'preferences', value });
          break;
        }
        case 'copy':
          await vscode.env.clipboard.writeText(m.text);
          void vscode.window.setStatusBarMessage('Session Search: turn copied', 2000);
          break;
      }
    } catch (err) {
      this.post({ type: 'error', message: errorMessage(err) });
    }
  }

  private async sendContext(): Promise<void> {
    const r = this.reader!;
    const window = await this.client.sendRequest(TurnsRequest, { id: r.sessionId, from: r.first, to: r.end, query: r.query });
    if (!window) return this.post({ type: 'error', message: 'This session is no longer in the index.' });
    r.total = window.total;
    r.end = Math.min(r.end, window.total);
    const turns = window.turns.map((t, i) => ({
      id: t.id,
      index: r.first + i,
      role: t.role,
      kind: t.kind,
      tool: t.tool,
      text: t.text,
      timestamp: t.timestamp,
      line: t.line,
      highlights: window.highlights[i] ?? [],
    }));
    this.post({
      type: 'context',
      sessionId: r.sessionId,
      topic: r.topic,
      hitIndex: r.hitIndex,
      first: r.first,
      turns,
      total: window.total,
      notes: window.notes,
    });
  }

  private async openRaw(sessionId: string, line?: number): Promise<void> {
    const session = (await this.client.sendRequest(TreeRequest, {})).find((s) => s.id === sessionId);
    if (!session || session.sourceDeleted || !existsSync(session.file)) {
      void vscode.window.showWarningMessage('The transcript file is gone; the session lives on in the archive.');
      return;
    }
    const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(vscode.Uri.file(session.file), { preview: true, selection: new vscode.Range(position, position) });
  }

  private html(root: vscode.Uri): string {
    const nonce = randomBytes(16).toString('base64');
    const webview = this.panel.webview;
    const script = webview.asWebviewUri(vscode.Uri.joinPath(root, 'panel.js'));
    const codicons = webview.asWebviewUri(vscode.Uri.joinPath(root, 'codicon.css'));
    const styles = webview.asWebviewUri(vscode.Uri.joinPath(root, 'panel.css'));
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${codicons.toString()}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${styles.toString()}">
<title>Session Search</title>
</head>
<body>
<div id="app"></div>
<script type="module" nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }
}
