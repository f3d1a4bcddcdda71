/**
 * The Sessions tree: Today, Yesterday, This Week, then months → sessions (or grouped by project or source), with
 * source icons, counts, tooltips and the context menu values the package.json menus key on.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { TreeSession } from '../protocol.js';
import { Disposable } from './dispose.js';
import { resumeCommand as coreResumeCommand } from '../core/resume.js';

export type Grouping = 'date' | 'project' | 'source' | 'tag';

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

const NO_TAGS = 'No tags';

type Node = { kind: 'group'; label: string; sessions: TreeSession[] } | { kind: 'session'; session: TreeSession };

export class SessionTree extends Disposable implements vscode.TreeDataProvider<Node> {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.changed.event;
  private sessions: TreeSession[] = [];
  grouping: Grouping = 'date';

  /** Sub-agent sessions by the session that started them: shown under it, not beside it. */
  private children = new Map<string, TreeSession[]>();

  setSessions(sessions: TreeSession[]): void {
    this.sessions = sessions;
    const ids = new Set(sessions.map((s) => s.id));
    this.children = new Map();
    for (const s of sessions) if (s.parentId && ids.has(s.parentId)) this.children.set(s.parentId, [...(this.children.get(s.parentId) ?? []), s]);
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

  /** The groups a session is shown in: one, except by tag, where it is under each of its tags (given ones first). */
  private groupsOf(s: TreeSession): string[] {
    if (this.grouping === 'project') return [s.project ? basename(s.project) || s.project : 'No project'];
    if (this.grouping === 'source') return [s.source];
    if (this.grouping === 'tag') {
      const tags = [...new Set([...(s.userTags ?? []), ...(s.topics ?? [])])];
      return tags.length ? tags : [NO_TAGS];
    }
    return [dateGroup(s.updated)];
  }

  getChildren(node?: Node): Node[] {
    if (node?.kind === 'session') return (this.children.get(node.session.id) ?? []).map((session) => ({ kind: 'session', session }));
    if (node?.kind === 'group') return node.sessions.map((session) => ({ kind: 'session', session }));
    const groups = new Map<string, TreeSession[]>();
    const ids = new Set(this.sessions.map((s) => s.id));
    for (const s of this.sessions) {
      if (s.parentId && ids.has(s.parentId)) continue; // under its parent
      for (const key of this.groupsOf(s)) {
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key)!.push(s);
      }
    }
    const entries = [...groups];
    // by tag: the tags people gave first, then topics, each by size; sessions without a tag last
    if (this.grouping === 'tag') {
      const given = new Set(this.sessions.flatMap((s) => s.userTags ?? []));
      const rank = ([label, list]: [string, TreeSession[]]): number => (label === NO_TAGS ? 2e9 : (given.has(label) ? 0 : 1e9) - list.length);
      entries.sort((a, b) => rank(a) - rank(b));
    }
    return entries.map(([label, sessions]) => ({ kind: 'group', label, sessions }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${node.sessions.length}`;
      item.contextValue = 'group';
      if (this.grouping === 'source') item.iconPath = new vscode.ThemeIcon(SOURCE_ICONS[node.label] ?? 'comment');
      if (this.grouping === 'tag' && node.label !== NO_TAGS) item.iconPath = new vscode.ThemeIcon('tag');
      return item;
    }
    const s = node.session;
    const subAgents = this.children.get(s.id)?.length ?? 0;
    const item = new vscode.TreeItem(s.topic, subAgents ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = s.id;
    if (s.owner) return teamItem(item, s);
    const given = s.userTags?.length ? ` · ${s.userTags.map((t) => `#${t}`).join(' ')}` : '';
    const agents = subAgents ? ` · ${subAgents} sub-agent${subAgents === 1 ? '' : 's'}` : '';
    const unread = s.unreadLines ? ` · ${s.unreadLines} unread line${s.unreadLines === 1 ? '' : 's'}` : '';
    item.description = `${s.source} · ${s.turns} turns${agents}${given}${unread}${s.sourceDeleted ? ' · source deleted' : ''}`;
    item.iconPath = new vscode.ThemeIcon(SOURCE_ICONS[s.source] ?? 'comment');
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendText(s.topic);
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(`${s.source} · ${new Date(s.updated).toLocaleString()} · ${s.turns} turns`);
    if (s.project) tooltip.appendText(`\nProject: ${s.project}${s.branch ? ` (${s.branch})` : ''}`);
    if (s.firstPrompt) tooltip.appendText(`\nFirst prompt: ${s.firstPrompt}`);
    const tags = [...(s.userTags ?? []), ...(s.topics ?? [])];
    if (tags.length) tooltip.appendText(`\nTags: ${tags.join(', ')}`);
    if (s.sourceDeleted) tooltip.appendText('\nThe tool deleted this transcript; it lives on in the archive.');
    if (s.unreadLines) tooltip.appendText(`\n${s.unreadLines} line(s) of the transcript could not be read: Session Search: Show Log says which and why.`);
    item.tooltip = tooltip;
    item.contextValue = `session${resumeCommand(s) ? '.resumable' : ''}${s.userTags?.length ? '.tagged' : ''}`;
    item.command = { command: 'sessionSearch.open', title: 'Open', arguments: [s.id] };
    return item;
  }
}

/** A session of the team archive: whose it is and where from; opened like any other, nothing local to do with it. */
function teamItem(item: vscode.TreeItem, s: TreeSession): vscode.TreeItem {
  item.description = `team: ${s.owner}@${s.machine ?? ''} · ${s.source} · ${s.turns} turns`;
  item.iconPath = new vscode.ThemeIcon('organization');
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendText(s.topic);
  tooltip.appendMarkdown('\n\n');
  tooltip.appendText(`${s.owner} on ${s.machine ?? ''} · ${s.source} · ${new Date(s.updated).toLocaleString()} · ${s.turns} turns`);
  if (s.project) tooltip.appendText(`\nProject: ${s.project}${s.branch ? ` (${s.branch})` : ''}`);
  item.tooltip = tooltip;
  item.contextValue = 'teamSession';
  item.command = { command: 'sessionSearch.open', title: 'Open', arguments: [s.id] };
  return item;
}
