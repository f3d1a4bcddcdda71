/**
 * Who wrote the lines of the file in an editor: asked once per version of the file (its unsaved text sent along) and
 * kept until the file or the index changes, so a hover over a line an agent wrote answers from memory — "Claude Code ·
 * 3 days ago · 'make the retry loop back off'" with a link to that turn. Nothing is asked for a file nobody hovers.
 */
import * as vscode from 'vscode';
import type { IndexClient } from './client.js';
import type { FileHistoryLines, FileHistoryResponse } from '../core/answer/file-history.js';
import { FileHistoryRequest } from '../protocol.js';
import { Disposable } from './dispose.js';
import { ago, sourceLabel } from './file-sessions.js';
import { SOURCE_ICONS } from './tree.js';

export type Segment = FileHistoryLines['segments'][number];

/** Files larger than this are not sent for attribution (the engine reads no more either). */
const MAX_CHARS = 4_000_000;

export class LineHistory extends Disposable implements vscode.HoverProvider {
  private readonly cache = new Map<string, { version: number; generation: number; answer: Promise<FileHistoryResponse | undefined> }>();
  private generation = 0;

  constructor(private readonly client: IndexClient) {
    super();
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.cache.delete(d.uri.toString())));
  }

  /** The index changed: what is cached may name other sessions now. */
  indexChanged(): void {
    this.generation++;
  }

  /** Every line of the document with the session that wrote it, or undefined for a file no session touched. */
  lines(document: vscode.TextDocument): Promise<FileHistoryResponse | undefined> {
    if (document.uri.scheme !== 'file' || document.getText().length > MAX_CHARS) return Promise.resolve(undefined);
    const key = document.uri.toString();
    const known = this.cache.get(key);
    if (known && known.version === document.version && known.generation === this.generation) return known.answer;
    const answer = this.client
      .sendRequest(FileHistoryRequest, {
        path: document.uri.fsPath,
        lines: `1-${Math.max(1, document.lineCount)}`,
        limit: 1,
        ...(document.isDirty ? { text: document.getText() } : {}),
      })
      .then(
        (r) => (r.total ? r : undefined),
        () => undefined,
      );
    this.cache.set(key, { version: document.version, generation: this.generation, answer });
    return answer;
  }

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const answer = await this.lines(document);
    const line = position.line + 1;
    const segment = answer?.lines?.segments.find((s) => s.from <= line && line <= s.to && s.session);
    if (!segment) return undefined;
    return new vscode.Hover(describeSegment(segment), new vscode.Range(segment.from - 1, 0, segment.to - 1, Number.MAX_SAFE_INTEGER));
  }
}

/** A hover's text: the source, when, the request, and a link that opens the reader at the turn. */
export function describeSegment(segment: Segment): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: ['sessionSearch.openTurn'] };
  md.appendMarkdown(`$(${SOURCE_ICONS[segment.source ?? ''] ?? 'history'}) **`).appendText(sourceLabel(segment.source ?? ''));
  md.appendMarkdown('** · ').appendText(segment.date ? ago(segment.date) : '');
  if (segment.request) md.appendMarkdown(' · ').appendText(`“${segment.request.length > 120 ? `${segment.request.slice(0, 119)}…` : segment.request}”`);
  const args = encodeURIComponent(JSON.stringify([segment.session, segment.topic ?? segment.session, segment.turn]));
  const lines = segment.from === segment.to ? `line ${segment.from}` : `lines ${segment.from}–${segment.to}`;
  md.appendMarkdown(`\n\n[Open the conversation](command:sessionSearch.openTurn?${args}) · `).appendText(
    `wrote ${lines}${segment.match === 'whitespace' ? ' (spacing changed since)' : ''}`,
  );
  return md;
}
