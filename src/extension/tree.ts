/**
 * The Sessions tree: Today, Yesterday, This Week, then months → sessions (or grouped by project or source), with
 * source icons, counts, tooltips and the context menu values the package.json menus key on.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { TreeSession } from '../protocol.js';
import { Disposable } from './dispose.js';
import { resumeCommand as coreResumeCommand } from '../core/resume.js';

export type Grouping = 'date' | 'project' | 'source';

export const SOURCE_ICONS: Record<string, string> = {
  'claude-code': 'sparkle',
  codex: 'terminal',
  codearchitect: 'notebook',
  'copilot-chat': 'copilot',
  gemini: 'star-full',
  cursor: 'target',
  cline: 'robot',
  roo: 'robot',
  opencode: 'code',
  specstory: 'book',
  aider: 'comment-discussion',
  'copilot-cli': 'copilot',
  amp: 'zap',
  continue: 'debug-continue',
  qwen: 'hubot',
  goose: 'rocket',
  kimi: 'globe',
  droid: 'tools',
  crush: 'beaker',
  openhands: 'organization',
  kiro: 'symbol-misc',
  zed: 'symbol-event',
  chatgpt: 'comment',
  'claude-ai': 'sparkle-filled',
  'gemini-takeout': 'cloud',
};

export function resumeCommand(session: TreeSession): string | undefined {
  return coreResumeCommand(session);
}

/** Date group of an ISO timestamp, relative to `now` in local time. */
export function dateGroup(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const day = (x: Date): number => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const diff = Math.round((day(now) - day(d)) / 86_400_000);
  if (diff <= 0) return 'Today';
  if (diff === 1) return 'Yesterday';
  if (diff < 7) return 'This Week';
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long' });
}

type Node = { kind: 'group'; label: string; sessions: TreeSession[] } | { kind: 'session'; session: TreeSession };

export class SessionTree extends Disposable implements vscode.TreeDataProvider<Node> {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.changed.event;
  private sessions: TreeSession[] = [];
  grouping: Grouping = 'date';

  setSessions(sessions: TreeSession[]): void {
    this.sessions = sessions;
    this.changed.fire();
  }

  setGrouping(grouping: Grouping): void {
    this.grouping = grouping;
    void vscode.commands.executeCommand('setContext', 'sessionSearch.grouping', grouping);
    this.changed.fire();
  }

  get count(): number {
    return this.sessions.length;
  }

  find(id: string | undefined): TreeSession | undefined {
    return id === undefined ? undefined : this.sessions.find((s) => s.id === id);
  }

  private groupOf(s: TreeSession): string {
    if (this.grouping === 'project') return s.project ? basename(s.project) || s.project : 'No project';
    if (this.grouping === 'source') return s.source;
    return dateGroup(s.updated);
  }

  getChildren(node?: Node): Node[] {
    if (node?.kind === 'session') return [];
    if (node?.kind === 'group') return node.sessions.map((session) => ({ kind: 'session', session }));
    const groups = new Map<string, TreeSession[]>();
    for (const s of this.sessions) {
      const key = this.groupOf(s);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push(s);
    }
    return [...groups].map(([label, sessions]) => ({ kind: 'group', label, sessions }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${node.sessions.length}`;
      item.contextValue = 'group';
      if (this.grouping === 'source') item.iconPath = new vscode.ThemeIcon(SOURCE_ICONS[node.label] ?? 'comment');
      return item;
    }
    const s = node.session;
    const item = new vscode.TreeItem(s.topic, vscode.TreeItemCollapsibleState.None);
    item.id = s.id;
    item.description = `${s.source} · ${s.turns} turns${s.sourceDeleted ? ' · source deleted' : ''}`;
    item.iconPath = new vscode.ThemeIcon(SOURCE_ICONS[s.source] ?? 'comment');
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendText(s.topic);
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(`${s.source} · ${new Date(s.updated).toLocaleString()} · ${s.turns} turns`);
    if (s.project) tooltip.appendText(`\nProject: ${s.project}${s.branch ? ` (${s.branch})` : ''}`);
    if (s.firstPrompt) tooltip.appendText(`\nFirst prompt: ${s.firstPrompt}`);
    if (s.sourceDeleted) tooltip.appendText('\nThe tool deleted this transcript; it lives on in the archive.');
    item.tooltip = tooltip;
    item.contextValue = resumeCommand(s) ? 'session.resumable' : 'session';
    item.command = { command: 'sessionSearch.open', title: 'Open', arguments: [s.id] };
    return item;
  }
}
