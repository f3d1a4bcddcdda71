/** get_session, list and paged reads. Names are looked up among loaded sessions, never joined onto a path. */
import { readFile, realpath } from 'node:fs/promises';
import type { GetResponse, ListResponse, Message, ReadResponse, SessionInfo } from '../contracts.js';
import { SessionSearchError, errorMessage } from '../errors.js';
import { render, toToon, type OutputFormat } from '../format.js';
import { maskText } from '../mask.js';
import { turnCount, type Session, type Turn } from '../model.js';
import type { LibraryView } from './view.js';
import { sessionTags, tagFilter } from './tags.js';
import { codeArchitectSiblings } from '../ingest/sources/codearchitect.js';
import { isInside } from '../ingest/walk.js';
import { resumeCommand } from '../resume.js';

/** Bytes of UTF-8 text a read returns at most (512,000 characters of ASCII). */
export const PAGE_BYTES = 512_000;

const byNewest = (a: Session, b: Session): number => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0);

function notFound(name: string): SessionSearchError {
  return new SessionSearchError('FILE_NOT_FOUND', `No session named "${name}". List sessions or search to find a name or id.`);
}

/** Resolves a session id, a tool's own id, a CodeArchitect folder name (`topic`, `date/topic`) or a file name. */
export function findSession(lib: LibraryView, name: string): { session: Session; part?: 'summary' | 'full' } {
  if (typeof name !== 'string' || !name.trim()) throw new SessionSearchError('FILE_NOT_FOUND', 'A session name or id is required.');
  if (name.includes('\0') || /^([\\/]|[A-Za-z]:)/.test(name) || name.split(/[\\/]/).includes('..')) throw notFound(name);
  const direct = lib.sessions.get(name);
  if (direct) return { session: direct };
  let key = name;
  let part: 'summary' | 'full' | undefined;
  if (key.endsWith('-summary.md')) [key, part] = [key.slice(0, -'-summary.md'.length), 'summary'];
  else if (key.endsWith('-full.md')) [key, part] = [key.slice(0, -'-full.md'.length), 'full'];
  else if (key.endsWith('.md') || key.endsWith('.jsonl')) key = key.replace(/\.(md|jsonl)$/, '');
  const all = [...lib.sessions.values()];
  const matches = all.filter((s) => s.nativeId === key || s.filename === key).sort(byNewest);
  if (!matches.length) throw notFound(name);
  return { session: matches[0], part };
}

export function turnsToMarkdown(session: Session, turns: readonly Turn[]): string {
  const head = [`# ${session.topic}`, '', `- Source: ${session.source}`, `- Date: ${session.created}`];
  if (session.project) head.push(`- Project: ${session.project}`);
  if (session.branch) head.push(`- Branch: ${session.branch}`);
  const body = turns.map((t) => {
    const label = t.kind === 'conversation' ? t.role.toUpperCase() : `${t.role.toUpperCase()} (${t.kind}${t.tool ? `: ${t.tool}` : ''})`;
    return `**${label}:**\n\n${t.text}`;
  });
  return [...head, '', ...body.flatMap((b) => [b, '', '---', ''])].join('\n');
}

async function readInsideRoots(lib: LibraryView, file: string): Promise<string> {
  try {
    const real = await realpath(file);
    if (!lib.roots.some((r) => isInside(r.path, real))) throw new Error('outside the configured roots');
    return maskText(await readFile(real, 'utf8'));
  } catch (err) {
    throw new SessionSearchError('READ_ERROR', `Cannot read ${file}: ${errorMessage(err)}.`);
  }
}

export async function getSession(lib: LibraryView, name: string, format: OutputFormat): Promise<GetResponse> {
  const { session, part } = findSession(lib, name);
  const turns = lib.turns.all(session);
  const messages: Message[] = turns.map((t) => ({ role: t.role, kind: t.kind, content: t.text }));
  let file = session.file;
  let markdown: string;
  if (session.source === 'codearchitect' && !session.sourceDeleted) {
    if (part === 'summary') {
      const summary = codeArchitectSiblings(session.file, lib.roots.find((r) => isInside(r.path, session.file))?.path ?? '').summary;
      if (!summary) throw new SessionSearchError('FILE_NOT_FOUND', `Session "${session.filename}" has no summary.md.`);
      file = summary;
    }
    markdown = await readInsideRoots(lib, file);
  } else {
    markdown = turnsToMarkdown(session, turns);
  }
  const chosen = format === 'json' ? 'json' : render({ messages }, format).format;
  const base = {
    id: session.id,
    source: session.source,
    filename: session.filename,
    topic: session.topic,
    date: session.created,
    file,
    // a summary asked for by name is the summary in every format; otherwise TOON carries the messages
    content: chosen === 'toon' && part !== 'summary' ? toToon({ messages }) : markdown,
    messages,
    format: chosen,
  };
  return {
    success: true,
    session: {
      ...base,
      ...(session.project ? { project: session.project } : {}),
      ...(session.branch ? { branch: session.branch } : {}),
      ...(resumeCommand(session) ? { resumeCommand: resumeCommand(session) } : {}),
      ...(session.sourceDeleted ? { sourceDeleted: true } : {}),
      ...(session.parentId ? { parentId: session.parentId } : {}),
      ...childrenOf(lib, session.id),
      ...(session.unreadLines ? { unreadLines: session.unreadLines } : {}),
    },
  };
}

/** The sub-agent sessions a session started, oldest first (none: nothing). */
function childrenOf(lib: LibraryView, id: string): { children?: string[] } {
  const children = [...lib.sessions.values()].filter((s) => s.parentId === id).sort((a, b) => a.created.localeCompare(b.created));
  return children.length ? { children: children.map((s) => s.id) } : {};
}

/** What a listing and a search result both say of a session first. */
export function sessionFields(s: Session): Pick<SessionInfo, 'id' | 'source' | 'filename' | 'topic' | 'date' | 'file' | 'size'> {
  return { id: s.id, source: s.source, filename: s.filename, topic: s.topic, date: s.created, file: s.file, size: s.size };
}

export function sessionInfo(s: Session): SessionInfo {
  const info: SessionInfo = { ...sessionFields(s), turns: turnCount(s) };
  if (s.project) info.project = s.project;
  if (s.sourceDeleted) info.sourceDeleted = true;
  if (s.parentId) info.parentId = s.parentId;
  const resume = resumeCommand(s);
  if (resume) info.resumeCommand = resume;
  return info;
}

export function listSessions(
  lib: LibraryView,
  options: {
    limit?: number;
    source?: string;
    project?: string;
    projectScope?: 'repo' | 'exact';
    branch?: string;
    tags?: string[];
    allTags?: boolean;
    format?: OutputFormat;
  },
  inRange: (s: Session) => boolean,
): ListResponse {
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
    throw new SessionSearchError('INVALID_ARGUMENT', `limit must be a positive whole number, got ${String(options.limit)}.`);
  }
  const byTags = tagFilter(lib, options.tags, options.allTags);
  const passing = [...lib.sessions.values()]
    .filter(
      (s) =>
        inRange(s) &&
        (!options.source || s.source === options.source) &&
        (!options.branch || s.branch === options.branch) &&
        (!options.project || lib.worktrees.inProject(s.project, options.project, options.projectScope === 'exact')) &&
        (!byTags || byTags(s)),
    )
    .sort(byNewest);
  const chosen = passing.slice(0, options.limit ?? Infinity).map((s) => {
    // topics not found yet are not looked for here: a list must not read every session's turns
    const info = sessionInfo(s);
    const tags = sessionTags(lib, s, false);
    if (tags.length) info.tags = tags;
    return info;
  });
  const format = render({ sessions: chosen }, options.format ?? 'auto').format;
  return { success: true, sessions: chosen, count: chosen.length, ...(passing.length > chosen.length ? { matched: passing.length } : {}), format };
}

/** The text behind a docid: a whole session (rendered as markdown) or one turn, exactly as stored. */
export function docText(lib: LibraryView, docid: string): string | undefined {
  const session = lib.sessions.get(docid);
  if (session) return turnsToMarkdown(session, lib.turns.all(session));
  const hash = docid.lastIndexOf('#');
  if (hash === -1) return undefined;
  const owner = lib.sessions.get(docid.slice(0, hash));
  return owner && lib.turns.all(owner).find((t) => t.id === docid)?.text;
}

export function readDoc(lib: LibraryView, docid: string, offset: number): ReadResponse {
  if (!Number.isInteger(offset) || offset < 0)
    throw new SessionSearchError('INVALID_ARGUMENT', `offset must be a whole number of at least 0, got ${String(offset)}.`);
  const text = typeof docid === 'string' ? docText(lib, docid) : undefined;
  if (text === undefined) return { found: false, docid: String(docid), total_bytes: 0, total_chars: 0, offset, returned_bytes: 0, next_offset: null, text: '' };
  // offsets and sizes in UTF-8 bytes, as the text is stored; a page never ends inside a character
  const bytes = Buffer.from(text, 'utf8');
  if (offset < bytes.length && (bytes[offset] & 0xc0) === 0x80)
    throw new SessionSearchError('INVALID_ARGUMENT', `offset ${offset} falls inside a character: pass the next_offset of the previous page.`);
  let end = Math.min(bytes.length, offset + PAGE_BYTES);
  while (end < bytes.length && end > offset && (bytes[end] & 0xc0) === 0x80) end--;
  const page = offset < bytes.length ? bytes.subarray(offset, end) : Buffer.alloc(0);
  return {
    found: true,
    docid,
    total_bytes: bytes.length,
    total_chars: text.length,
    offset,
    returned_bytes: page.length,
    next_offset: offset + page.length < bytes.length ? offset + page.length : null,
    text: page.toString('utf8'),
  };
}
