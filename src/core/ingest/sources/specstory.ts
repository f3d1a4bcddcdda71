/**
 * SpecStory: `<project>/.specstory/history/YYYY-MM-DD_HH-MM[-SS]Z-<slug>.md`, markdown written by the SpecStory
 * extension and CLI for Cursor, Claude Code, Gemini CLI and others (v1 and v2 headers). Turns start at
 * `_**User (…)**_` / `_**Agent (model …)**_` / `_**Assistant**_` lines outside code fences; tool calls are
 * `<tool-use>` blocks and thinking `<think>` blocks inside the agent's text.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, sep } from 'node:path';
import type { Role, TurnKind } from '../../model.js';
import { buildSession, slashCommandText, type RawTurn } from './build.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const FILE_NAME = /^(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})(?:-(\d{2}))?Z-.*\.md$/;
const TURN = /^_\*\*(User|Agent|Assistant)(?: \((.*)\))?\*\*_\s*$/;
const SESSION = /<!--\s*(.+?) Session ([0-9A-Za-z-]+)(?: \(([^)]*)\))?\s*-->/;
const STAMP = /(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)Z/;
const BLOCK = /<tool-use\b([^>]*)>([\s\S]*?)<\/tool-use>|<think>([\s\S]*?)<\/think>/g;
const MAX_BYTES = 64 * 1024 * 1024;

const isoFrom = (text: string | undefined): string | undefined => {
  const m = text ? STAMP.exec(text) : null;
  if (!m) return undefined;
  const d = new Date(`${m[1]}T${m[2].length === 5 ? `${m[2]}:00` : m[2]}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
};

const plain = (html: string): string =>
  html
    .replace(/<\/?(details|summary)[^>]*>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

function toolKind(attrs: string): TurnKind {
  const type = /data-tool-type="([^"]*)"/.exec(attrs)?.[1] ?? '';
  if (type === 'read') return 'file';
  if (type === 'write' || type === 'edit') return 'diff';
  return 'tool';
}

/** Splits an agent turn into prose, tool calls and thinking. */
function agentTurns(text: string, timestamp: string | undefined, line: number): RawTurn[] {
  const turns: RawTurn[] = [];
  let last = 0;
  for (const m of text.matchAll(BLOCK)) {
    const before = text.slice(last, m.index).trim();
    if (before) turns.push({ role: 'assistant', kind: 'conversation', text: before, timestamp, line });
    if (m[3] !== undefined) turns.push({ role: 'assistant', kind: 'thinking', text: plain(m[3]), timestamp, line });
    else {
      const tool = /data-tool-name="([^"]*)"/.exec(m[1])?.[1];
      turns.push({ role: 'assistant', kind: toolKind(m[1]), tool, text: plain(m[2]), timestamp, line });
    }
    last = m.index + m[0].length;
  }
  const rest = text.slice(last).trim();
  if (rest) turns.push({ role: 'assistant', kind: 'conversation', text: rest, timestamp, line });
  return turns;
}

export function parseSpecStory(text: string): { turns: RawTurn[]; title?: string; sessionId?: string; provider?: string; started?: string } {
  const lines = text.split('\n');
  const session = SESSION.exec(text);
  const heading = lines
    .find((l) => l.startsWith('# '))
    ?.slice(2)
    .trim();
  const titled = heading && !/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(heading) ? heading.replace(/\s*\(\d{4}-\d{2}-\d{2}[^)]*\)\s*$/, '') : undefined;
  const turns: RawTurn[] = [];
  let current: { role: Role; header: string; line: number; body: string[] } | undefined;
  let fenced = false;
  const flush = (): void => {
    if (!current) return;
    const body = current.body;
    while (body.length && (!body[body.length - 1].trim() || body[body.length - 1].trim() === '---')) body.pop();
    const text = body.join('\n').trim();
    const timestamp = isoFrom(current.header);
    if (text && current.role === 'user')
      turns.push({ role: 'user', kind: 'conversation', text: slashCommandText(text) ?? text, timestamp, line: current.line });
    else if (text) turns.push(...agentTurns(text, timestamp, current.line));
    current = undefined;
  };
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const turn = fenced ? null : TURN.exec(line);
    if (turn) {
      flush();
      current = { role: turn[1] === 'User' ? 'user' : 'assistant', header: turn[2] ?? '', line: i + 1, body: [] };
    } else if (current) current.body.push(line);
  });
  flush();
  return { turns, title: titled, sessionId: session?.[2], provider: session?.[1], started: isoFrom(session?.[3]) ?? isoFrom(heading) };
}

export const specStorySource: SourceAdapter = {
  id: 'specstory',
  label: 'SpecStory',
  defaultRoots: DEFAULT_ROOTS.specstory,
  accepts: (file) => FILE_NAME.test(basename(file)) && !file.split(sep).includes('node_modules'),
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    if (info.size > MAX_BYTES) {
      ctx.logger.warn(`${file}: skipped, ${info.size} bytes is over the ${MAX_BYTES}-byte limit`);
      return [];
    }
    const text = await readFile(file, 'utf8');
    if (!text.includes('SpecStory') && !TURN.test(text.split('\n').find((l) => TURN.test(l)) ?? '')) {
      ctx.logger.info(`${file}: not a SpecStory history file, skipped`);
      return [];
    }
    const parsed = parseSpecStory(text);
    if (!parsed.turns.length) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    const name = FILE_NAME.exec(basename(file))!;
    const fromName = new Date(`${name[1]}T${name[2]}:${name[3]}:${name[4] ?? '00'}Z`);
    const history = dirname(file);
    const project = basename(history) === 'history' && basename(dirname(history)) === '.specstory' ? dirname(dirname(history)) : undefined;
    return [
      buildSession(
        {
          source: 'specstory',
          nativeId: parsed.sessionId ?? basename(file, '.md'),
          topic: parsed.title,
          filename: basename(file, '.md'),
          file,
          size: info.size,
          created: parsed.started ?? (Number.isNaN(fromName.getTime()) ? undefined : fromName.toISOString()),
          project,
          turns: parsed.turns,
        },
        info.mtime,
      ),
    ];
  },
};
