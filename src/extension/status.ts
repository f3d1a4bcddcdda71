/**
 * The status bar item: indexing progress (files and MB, click to cancel), then the number of sessions; while the
 * user's own embedding model embeds the sessions (or cannot), how far it is, after them.
 */
import * as vscode from 'vscode';
import type { MeaningState } from '../core/embed/leg.js';
import type { IndexProgress } from '../protocol.js';

const mb = (bytes: number): string => (bytes / 1048576).toFixed(bytes < 10 * 1048576 ? 1 : 0);

export class IndexStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  private progress: IndexProgress | undefined;
  private meaning: MeaningState | null = null;

  constructor() {
    this.item.command = 'sessionSearch.search';
    this.item.text = '$(history) Sessions: starting…';
    this.item.show();
  }

  update(p: IndexProgress): void {
    this.progress = p;
    this.render();
  }

  /** The user's model's state (null: none configured). */
  embeddings(state: MeaningState | null): void {
    this.meaning = state;
    if (this.progress) this.render();
  }

  private render(): void {
    const p = this.progress!;
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
    if (p.storage) {
      // (answers are right; what the user must hear is that nothing is kept, and what to do)
      this.item.text = `$(warning) ${p.sessions.toLocaleString()} sessions (not saved)`;
      this.item.tooltip = `${p.storage.detail}.\n${p.storage.advice}.\nClick to open the log.`;
      this.item.command = 'sessionSearch.showLog';
      return;
    }
    const unread = p.state === 'ready' && p.unread ? ` $(warning) ${p.unread.toLocaleString()}` : '';
    const m = this.meaning;
    const embedding =
      m?.status === 'embedding' || m?.status === 'starting'
        ? ` $(sparkle) ${m.sessionsTotal ? Math.floor((100 * m.sessionsDone) / m.sessionsTotal) : 0}%`
        : m?.status === 'failed'
          ? ' $(sparkle)$(warning)'
          : '';
    this.item.text = `$(history) ${p.sessions.toLocaleString()} sessions${p.state === 'cancelled' ? ' (partial)' : ''}${unread}${embedding}`;
    const model =
      m && m.status !== 'ready'
        ? m.status === 'failed'
          ? `\nYour embedding model cannot be used: ${m.error ?? 'see the log'}. Searches rank without it; it is tried again.`
          : `\nYour embedding model (${m.model}) is embedding sessions: ${m.sessionsDone.toLocaleString()} of ${m.sessionsTotal.toLocaleString()}. Searches rank by it as far as it got.`
        : '';
    this.item.tooltip =
      (p.state === 'cancelled'
        ? 'Indexing was cancelled: what was read is searchable; the rest is read on the next start or with Rebuild Index.'
        : unread
          ? `${p.unread} session(s) have lines that could not be read (malformed or too long even cut short). Click to open the log.`
          : 'Search sessions') + model;
    this.item.command = unread || m?.status === 'failed' ? 'sessionSearch.showLog' : 'sessionSearch.search';
  }

  dispose(): void {
    this.item.dispose();
  }
}
