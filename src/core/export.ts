/**
 * A session exported to share or keep: Markdown, a self-contained HTML page (styled, readable offline, no script, no
 * remote asset, each turn a `<details>`, code kept), or JSON. Text is exported as stored (masked) and masked once
 * more on the way out; optionally the home folder and the user's name in paths become `~` and `<user>`.
 */
import { maskText } from './mask.js';
import type { ExportFormat, Session, Turn } from './model.js';
import { resumeCommand } from './resume.js';
import { escapeRegExp } from './regexp.js';

export interface ExportOptions {
  /** Replace this home folder (and the user's name in `/home/<name>`, `/Users/<name>`, `C:\Users\<name>`) in the text. */
  home?: string;
}

/** What a turn is called in an export. */
function label(turn: Turn): string {
  const who = turn.role === 'user' ? 'User' : turn.role === 'assistant' ? 'Assistant' : turn.role === 'tool' ? 'Tool' : 'System';
  if (turn.kind === 'conversation') return who;
  return `${who} · ${turn.kind}${turn.tool ? ` (${turn.tool})` : ''}`;
}

function cleaner(options: ExportOptions): (text: string) => string {
  const home = options.home?.replace(/[\\/]+$/, '');
  const user = home?.split(/[\\/]/).at(-1);
  const patterns: [RegExp, string][] = [];
  if (home) patterns.push([new RegExp(escapeRegExp(home), 'g'), '~']);
  if (user) patterns.push([new RegExp(`(/home/|/Users/|[A-Za-z]:\\\\Users\\\\)${escapeRegExp(user)}(?=[\\\\/]|\\b)`, 'g'), '$1<user>']);
  return (text) => patterns.reduce((t, [re, to]) => t.replace(re, to), maskText(text));
}

/** The session's title on one line, without the Markdown heading marks a pasted prompt may start with. */
function title(session: Session, clean: (t: string) => string): string {
  return (
    clean(session.topic)
      .replace(/^[#\s]+/, '')
      .replace(/\s+/g, ' ')
      .trim() || session.id
  );
}

/** The lines under the title: what the session is and where it ran (empty ones left out). */
function metadata(session: Session, clean: (t: string) => string): [string, string][] {
  const rows: [string, string | undefined][] = [
    ['Source', session.source],
    ['Session', session.id],
    ['Project', session.project && clean(session.project)],
    ['Branch', session.branch],
    ['Started', session.created],
    ['Last turn', session.updated],
    ['Resume', resumeCommand(session)],
  ];
  return rows.filter((r): r is [string, string] => !!r[1]);
}

/** A fence longer than any run of backticks in the text. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

function toMarkdown(session: Session, turns: readonly Turn[], clean: (t: string) => string): string {
  const lines = [`# ${title(session, clean)}`, ''];
  const meta = metadata(session, clean);
  for (const [k, v] of meta) lines.push(`- **${k}:** ${v}`);
  for (const turn of turns) {
    const text = clean(turn.text);
    lines.push('', `## ${label(turn)}${turn.timestamp ? ` — ${turn.timestamp}` : ''}`, '');
    if (turn.kind === 'conversation' || turn.kind === 'note') lines.push(text);
    else {
      const f = fence(text);
      lines.push(`${f}${turn.kind === 'diff' ? 'diff' : ''}`, text, f);
    }
  }
  return `${lines.join('\n')}\n`;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0; --code: #f6f8fa; --user: #ddf4ff; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --code: #151b23; --user: #0c2d4f; } }
body { font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); max-width: 920px; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: .25rem; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; color: var(--muted); font-size: .9rem; }
dl.meta dt { font-weight: 600; }
details { border: 1px solid var(--line); border-radius: 6px; margin: .75rem 0; }
details.user { background: var(--user); }
summary { cursor: pointer; padding: .4rem .75rem; font-weight: 600; }
summary .time { color: var(--muted); font-weight: 400; font-size: .85rem; margin-left: .5rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; padding: 0 .75rem .75rem; margin: 0; }
pre.text { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); padding: .75rem; margin: 0 .75rem .75rem; overflow-x: auto; }
details.thinking, details.tool, details.file, details.diff { color: var(--muted); }
`;

function toHtml(session: Session, turns: readonly Turn[], clean: (t: string) => string): string {
  const meta = metadata(session, clean);
  const body = turns.map((turn) => {
    const open = turn.kind === 'conversation' ? ' open' : '';
    const cls = turn.kind === 'conversation' ? turn.role : turn.kind;
    const tag = turn.kind === 'conversation' || turn.kind === 'note' ? 'div' : 'pre';
    const time = turn.timestamp ? `<span class="time">${escapeHtml(turn.timestamp)}</span>` : '';
    return `<details class="${cls}"${open}><summary>${escapeHtml(label(turn))}${time}</summary><${tag} class="text">${escapeHtml(clean(turn.text))}</${tag}></details>`;
  });
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title(session, clean))}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(title(session, clean))}</h1>`,
    `<dl class="meta">${meta.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`,
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function toJson(session: Session, turns: readonly Turn[], clean: (t: string) => string): string {
  const out = {
    id: session.id,
    source: session.source,
    topic: clean(session.topic),
    ...(session.project ? { project: clean(session.project) } : {}),
    ...(session.branch ? { branch: session.branch } : {}),
    created: session.created,
    updated: session.updated,
    ...(resumeCommand(session) ? { resumeCommand: resumeCommand(session) } : {}),
    turns: turns.map((t) => ({
      role: t.role,
      kind: t.kind,
      ...(t.tool ? { tool: t.tool } : {}),
      ...(t.timestamp ? { timestamp: t.timestamp } : {}),
      text: clean(t.text),
    })),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** The session in `format`. */
export function exportSession(session: Session, turns: readonly Turn[], format: ExportFormat, options: ExportOptions = {}): string {
  const clean = cleaner(options);
  if (format === 'md') return toMarkdown(session, turns, clean);
  if (format === 'html') return toHtml(session, turns, clean);
  return toJson(session, turns, clean);
}
