/**
 * Session Search: Why Is This Code Here? — for the selected lines (or the cursor's), the sessions whose edits wrote
 * them as they are now; one opens the reader at that turn. Lines no agent edit matches are said to be so.
 */
import * as vscode from 'vscode';
import type { LineHistory, Segment } from '../line-history.js';
import { ago, sourceLabel } from '../file-sessions.js';

type Pick = vscode.QuickPickItem & { segment?: Segment };

export async function whyThisCode(lines: LineHistory): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== 'file')
    return void vscode.window.showInformationMessage('Session Search: open a file and select the lines to ask about.');
  const from = editor.selection.start.line + 1;
  const to = editor.selection.end.line + 1 - (editor.selection.end.character === 0 && editor.selection.end.line > editor.selection.start.line ? 1 : 0);
  const answer = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Session Search: looking for the sessions behind these lines' },
    () => lines.lines(editor.document),
  );
  const span = from === to ? `line ${from}` : `lines ${from}–${to}`;
  if (!answer) return void vscode.window.showInformationMessage(`Session Search: no agent session touched this file, so ${span} were not written by one.`);
  const segments = (answer.lines?.segments ?? [])
    .filter((s) => s.to >= from && s.from <= to)
    .map((s) => ({ ...s, from: Math.max(s.from, from), to: Math.min(s.to, to) }));
  const written = segments.filter((s) => s.session);
  if (!written.length) {
    const pick = await vscode.window.showInformationMessage(
      `Session Search: no agent edit matches ${span} (written by hand, or changed since). ${answer.total} session(s) touched this file.`,
      'Show Them',
    );
    if (pick) await vscode.commands.executeCommand('sessionSearch.fileSessions.focus');
    return;
  }
  if (written.length === 1 && segments.length === 1) return void (await open(written[0]));
  const items: Pick[] = segments.map((s) => {
    const range = s.from === s.to ? `Line ${s.from}` : `Lines ${s.from}–${s.to}`;
    return s.session
      ? { label: `$(history) ${range}: ${s.request ?? s.session}`, description: `${sourceLabel(s.source ?? '')} · ${s.date ? ago(s.date) : ''}`, segment: s }
      : { label: `$(person) ${range}`, description: 'no agent edit matches (written by hand, or changed since)' };
  });
  const picked = await vscode.window.showQuickPick(items, { title: `Why is this code here? (${span})`, placeHolder: 'Open the turn that wrote these lines' });
  if (picked?.segment) await open(picked.segment);
}

function open(segment: Segment): Thenable<unknown> {
  return vscode.commands.executeCommand('sessionSearch.openTurn', segment.session, segment.topic ?? segment.session, segment.turn);
}
