/**
 * "Sessions for This File": the sessions whose agent touched the active editor's file, newest first, following the
 * active editor. Asked only while the view is visible (a hidden view costs nothing), again when the index changes or
 * the file is saved; each session opens in the reader at the turn that touched the file.
 */
import * as vscode from 'vscode';
import type { IndexClient } from './client.js';
import type { FileHistoryResponse, FileHistorySession } from '../core/answer/file-history.js';
import { errorMessage } from '../core/errors.js';
import { FileHistoryRequest } from '../protocol.js';
import { Disposable } from './dispose.js';
import { SOURCE_ICONS } from './tree.js';

const LABELS: Record<string, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'copilot-chat': 'Copilot Chat',
  'copilot-cli': 'Copilot CLI',
  gemini: 'Gemini CLI',
  cursor: 'Cursor',
  cline: 'Cline',
  roo: 'Roo Code',
  opencode: 'OpenCode',
  codearchitect: 'CodeArchitect',
  specstory: 'SpecStory',
  aider: 'Aider',
};

export const sourceLabel = (source: string): string => LABELS[source] ?? source;

/** "3 days ago", "just now": how long before `now` an instant was. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  const steps: [number, string][] = [
    [60, 'second'],
    [60, 'minute'],
    [24, 'hour'],
    [30, 'day'],
    [12, 'month'],
  ];
  let value = seconds;
  if (value < 45) return 'just now';
  for (const [size, unit] of steps) {
    if (value < size) return `${Math.round(value)} ${unit}${Math.round(value) === 1 ? '' : 's'} ago`;
    value /= size;
  }
  return `${Math.round(value)} year${Math.round(value) === 1 ? '' : 's'} ago`;
}

const KIND_WORDS: Record<string, string> = { read: 'read', write: 'wrote', edit: 'edited', delete: 'deleted', run: 'ran a command on' };

type Node = { kind: 'session'; session: FileHistorySession } | { kind: 'note'; text: string };

export class FileSessionsView extends Disposable implements vscode.TreeDataProvider<Node> {
  private readonly changes = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.changes.event;
  private view: vscode.TreeView<Node> | undefined;
  private answer: { path: string; response?: FileHistoryResponse; failed?: string } | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: IndexClient,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
  }

  /** Creates the view and follows the active editor, the saves of its file and the visibility of the view. */
  attach(): vscode.TreeView<Node> {
    const view = this.register(vscode.window.createTreeView('sessionSearch.fileSessions', { treeDataProvider: this }));
    this.view = view;
    this.register(vscode.window.onDidChangeActiveTextEditor(() => this.refreshSoon()));
    this.register(vscode.workspace.onDidSaveTextDocument((d) => d.uri.fsPath === this.path() && this.refreshSoon()));
    this.register(view.onDidChangeVisibility(() => this.refreshSoon()));
    this.refreshSoon();
    return view;
  }

  /** The index changed: asked again (when visible). */
  indexChanged(): void {
    this.refreshSoon();
  }

  private path(): string | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri?.scheme === 'file' ? uri.fsPath : undefined;
  }

  private refreshSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), 150);
  }

  async refresh(): Promise<void> {
    if (!this.view?.visible) return;
    const path = this.path();
    if (!path) {
      // another kind of editor (a session in the reader, the search panel): the last file stays
      if (!this.answer) this.changes.fire();
      return;
    }
    try {
      const response = await this.client.sendRequest(FileHistoryRequest, { path, limit: 50 });
      this.answer = { path, response };
    } catch (err) {
      this.log.warn(`sessions for ${path}: ${errorMessage(err)}`);
      this.answer = { path, failed: errorMessage(err) };
    }
    const name = path.split(/[\\/]/).pop();
    if (this.view) this.view.description = name;
    void vscode.commands.executeCommand('setContext', 'sessionSearch.fileHasSessions', !!this.answer.response?.total);
    this.changes.fire();
  }

  getChildren(node?: Node): Node[] {
    if (node) return [];
    if (!this.answer) return [{ kind: 'note', text: 'Open a file to see the agent sessions that touched it.' }];
    if (this.answer.failed) return [{ kind: 'note', text: `Could not look it up: ${this.answer.failed}` }];
    const sessions = this.answer.response?.sessions ?? [];
    if (!sessions.length) return [{ kind: 'note', text: 'No agent session touched this file.' }];
    return sessions.map((session) => ({ kind: 'session', session }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'note') return new vscode.TreeItem(node.text);
    const s = node.session;
    const item = new vscode.TreeItem(s.request ?? s.topic);
    const kinds = [...new Set(s.touches.map((t) => KIND_WORDS[t.kind]))].join(', ');
    item.description = `${sourceLabel(s.source)} · ${ago(s.date)} · ${kinds}`;
    item.iconPath = new vscode.ThemeIcon(SOURCE_ICONS[s.source] ?? 'history');
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**`).appendText(s.topic).appendMarkdown(`**\n\n`);
    tooltip.appendText(`${sourceLabel(s.source)} · ${new Date(s.date).toLocaleString()} · ${kinds} in ${s.touches.length} turn(s)`);
    const hunk = s.touches.find((t) => t.hunk)?.hunk;
    if (hunk) tooltip.appendCodeblock(hunk.slice(0, 400));
    item.tooltip = tooltip;
    item.contextValue = 'fileSession';
    const first = s.touches[0]?.turn;
    item.command = { command: 'sessionSearch.openTurn', title: 'Open at the Turn', arguments: [s.id, s.topic, first] };
    return item;
  }
}
