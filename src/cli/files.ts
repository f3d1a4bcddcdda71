/** `session-search files <path> [--lines N-M]` for people: the sessions behind a file, and who wrote its lines. */
import type { FileHistoryResponse } from '../core/answer/file-history.js';
import { indexingLine } from '../core/indexing-line.js';
import { ANSI, printable, style } from './render.js';

export function renderFiles(response: FileHistoryResponse, color: boolean): string {
  const out: string[] = [];
  const line = indexingLine(response);
  if (line) out.push(style(color, ANSI.dim, line.trimEnd()));
  if (!response.total) out.push(`No session touched ${printable(response.path)}.`);
  else {
    const more = response.total > response.count ? ` (newest ${response.count}; --limit N for more)` : '';
    out.push(`${style(color, ANSI.bold, printable(response.path))}: ${response.total} session${response.total === 1 ? '' : 's'}${more}`);
  }
  for (const s of response.sessions) {
    const kinds = [...new Set(s.touches.map((t) => t.kind))].join(', ');
    out.push('', `${s.date.slice(0, 10)}  ${s.source.padEnd(13)}  ${style(color, ANSI.bold, printable(s.topic))}  ${style(color, ANSI.dim, s.id)}`);
    out.push(
      `  ${kinds} in ${s.touches.length} turn${s.touches.length === 1 ? '' : 's'}: ${s.touches.map((t) => `#${t.turn.slice(t.turn.lastIndexOf('#') + 1)}`).join(' ')}`,
    );
    if (s.request) out.push(`  asked: ${printable(s.request)}`);
  }
  if (response.lines) {
    const { from, to, segments } = response.lines;
    out.push('', style(color, ANSI.bold, `Lines ${from}-${to}:`));
    for (const seg of segments) {
      const range = seg.from === seg.to ? `${seg.from}` : `${seg.from}-${seg.to}`;
      if (!seg.session) out.push(`  ${range.padEnd(9)} no agent edit matches (written by hand, or changed since)`);
      else
        out.push(
          `  ${range.padEnd(9)} ${seg.source ?? ''} · ${(seg.date ?? '').slice(0, 10)} · ${printable(seg.request ?? '')}  ${style(color, ANSI.dim, seg.turn ?? '')}`,
        );
    }
  }
  return `${out.join('\n')}\n`;
}
