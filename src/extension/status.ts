/** The status bar item: indexing progress (files and MB, click to cancel), then the number of sessions. */
import * as vscode from 'vscode';
import type { IndexProgress } from '../protocol.js';

const mb = (bytes: number): string => (bytes / 1048576).toFixed(bytes < 10 * 1048576 ? 1 : 0);

export class IndexStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.command = 'sessionSearch.search';
    this.item.text = '$(history) Sessions: starting…';
    this.item.show();
  }

  update(p: IndexProgress): void {
    if (p.state === 'indexing') {
      this.item.text = `$(sync~spin) Sessions: indexing ${p.files.toLocaleString()}/${p.totalFiles.toLocaleString()}`;
      this.item.tooltip = `Session Search is reading your transcripts: ${p.files} of ${p.totalFiles} files, ${mb(p.bytes)} of ${mb(p.totalBytes)} MB, ${p.sessions} sessions searchable so far.\nClick to cancel.`;
      this.item.command = 'sessionSearch.cancelIndexing';
      return;
    }
    if (p.state === 'stopped') {
      this.item.text = `$(warning) ${p.sessions.toLocaleString()} sessions (partial)`;
      this.item.tooltip = `Indexing stopped: ${p.reason ?? 'before the end'}.\nClick to open the log.`;
      this.item.command = 'sessionSearch.showLog';
      return;
    }
    const unread = p.state === 'ready' && p.unread ? ` $(warning) ${p.unread.toLocaleString()}` : '';
    this.item.text = `$(history) ${p.sessions.toLocaleString()} sessions${p.state === 'cancelled' ? ' (partial)' : ''}${unread}`;
    this.item.tooltip =
      p.state === 'cancelled'
        ? 'Indexing was cancelled: what was read is searchable; the rest is read on the next start or with Rebuild Index.'
        : unread
          ? `${p.unread} session(s) have lines that could not be read (malformed or too long even cut short). Click to open the log.`
          : 'Search sessions';
    this.item.command = unread ? 'sessionSearch.showLog' : 'sessionSearch.search';
  }

  dispose(): void {
    this.item.dispose();
  }
}
