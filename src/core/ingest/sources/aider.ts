/**
 * Aider: `.aider.chat.history.md` in a project folder, one append-only file holding every session, each starting with
 * `# aider chat started at YYYY-MM-DD HH:MM:SS` (local time). `#### ` lines are the user's input, `> ` lines are
 * aider's own output (commands, tool results), everything else is the model's reply.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, relative, sep } from 'node:path';
import type { ParsedSession } from '../../model.js';
import { buildSession, titleFrom, type RawTurn } from './build.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const START = /^# aider chat started at (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})\s*$/;
const MAX_BYTES = 256 * 1024 * 1024;

export function isAiderHistory(file: string): boolean {
  const name = basename(file);
  return name === '.aider.chat.history.md' || /chat[-.]history\.md$/.test(name);
}

interface AiderSession {
  start?: string;
  line: number;
  turns: RawTurn[];
}

/** Splits one history file into sessions and turns. Consecutive lines of one kind form one turn. */
export function parseAiderHistory(text: string): AiderSession[] {
  const sessions: AiderSession[] = [];
  let current: AiderSession | undefined;
  let kind: 'user' | 'tool' | 'assistant' | undefined;
  let buffer: string[] = [];
  let bufferLine = 0;
  const flush = (): void => {
    if (current && kind && buffer.some((l) => l.trim())) {
      const text = buffer.join('\n').trim();
      if (kind === 'user') current.turns.push({ role: 'user', kind: 'conversation', text, timestamp: current.start, line: bufferLine });
      else if (kind === 'tool') current.turns.push({ role: 'tool', kind: 'tool', text, timestamp: current.start, line: bufferLine });
      else current.turns.push({ role: 'assistant', kind: 'conversation', text, timestamp: current.start, line: bufferLine });
    }
    buffer = [];
    kind = undefined;
  };
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const start = START.exec(line);
    if (start) {
      flush();
      const date = new Date(`${start[1]}T${start[2]}`);
      current = { start: Number.isNaN(date.getTime()) ? undefined : date.toISOString(), line: i + 1, turns: [] };
      sessions.push(current);
      return;
    }
    if (!current) return; // a modeline or anything before the first header
    const next = line.startsWith('#### ') || line === '####' ? 'user' : line.startsWith('>') ? 'tool' : line.trim() === '' ? kind : 'assistant';
    if (next !== kind) {
      flush();
      kind = next;
      bufferLine = i + 1;
    }
    if (kind === 'user') buffer.push(line.replace(/^####\s?/, '').replace(/ {2}$/, ''));
    else if (kind === 'tool') buffer.push(line.replace(/^>\s?/, '').replace(/ {2}$/, ''));
    else buffer.push(line);
  });
  flush();
  return sessions;
}

export const aiderSource: SourceAdapter = {
  id: 'aider',
  label: 'Aider',
  defaultRoots: DEFAULT_ROOTS.aider,
  accepts: (file) => isAiderHistory(file),
  async readFile(file, root, ctx) {
    const info = await stat(file);
    if (info.size > MAX_BYTES) {
      ctx.logger.warn(`${file}: skipped, ${info.size} bytes is over the ${MAX_BYTES}-byte limit`);
      return [];
    }
    const text = await readFile(file, 'utf8');
    const project = dirname(file);
    const out: ParsedSession[] = [];
    parseAiderHistory(text).forEach((s, index) => {
      const prompts = s.turns.filter((t) => t.role === 'user');
      if (!prompts.length) return; // a start-up banner with no prompt is not a conversation
      const title = titleFrom((prompts.find((t) => !t.text.startsWith('/')) ?? prompts[0]).text);
      out.push(
        buildSession(
          {
            source: 'aider',
            nativeId: `${relative(root, file).split(sep).join('/') || basename(file)}#${index + 1}`,
            topic: title,
            filename: basename(file),
            file,
            size: info.size,
            created: s.start,
            project,
            turns: s.turns,
          },
          info.mtime,
        ),
      );
    });
    if (!out.length) ctx.logger.info(`${file}: no conversation turns, not indexed`);
    return out;
  },
};
