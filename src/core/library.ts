/**
 * The composition root of the engine: reads every configured root through its source adapter, masks, indexes, and
 * answers search / get / list / read for every front end (CLI, MCP server, index server).
 */
import { realpath } from 'node:fs/promises';
import type { GetResponse, ListResponse, ReadResponse, SearchOptions, SearchResponse } from './api.js';
import { dayRange, overlaps } from './dates.js';
import { SessionSearchError } from './errors.js';
import type { OutputFormat } from './format.js';
import { SearchIndex } from './index/engine.js';
import { TitleIndex } from './index/title-index.js';
import { parseQuery } from './index/query.js';
import type { Logger } from './log.js';
import { ROLES, type Session } from './model.js';
import { getSession, listSessions, readDoc } from './reading.js';
import { searchSessions } from './searching.js';
import { sourceById, type SourceRoot } from './sources/registry.js';
import { walkFiles } from './walk.js';
import { searchContext, type ContextQuery } from './context.js';
import { storeCodeArchitectSession, type StoredMessage } from './store/codearchitect-store.js';
import { codeArchitectDefaultRoot, codeArchitectSource } from './sources/codearchitect.js';
import { mkdir } from 'node:fs/promises';

/** Tool output beyond this many characters per turn is kept for reading but not indexed. */
export const INDEXED_CHARS_PER_TOOL_TURN = 16 * 1024;

export interface LibraryOptions {
  roots: SourceRoot[];
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}

export interface LoadProgress {
  files: number;
  totalFiles: number;
  sessions: number;
}

export class SessionLibrary {
  readonly sessions = new Map<string, Session>();
  readonly index = new SearchIndex();
  readonly titles = new TitleIndex();
  private readonly resolvedRoots: SourceRoot[] = [];

  constructor(private readonly options: LibraryOptions) {}

  get roots(): readonly SourceRoot[] {
    return this.resolvedRoots;
  }

  /** Reads every root. Files that fail are logged and skipped; the rest load. */
  async load(onProgress?: (p: LoadProgress) => void): Promise<void> {
    const ctx = { logger: this.options.logger, env: this.options.env ?? process.env };
    const plan: { root: SourceRoot; files: string[] }[] = [];
    for (const root of this.options.roots) {
      const adapter = sourceById(root.source);
      if (!adapter) throw new SessionSearchError('INVALID_ARGUMENT', `Unknown source "${root.source}".`);
      const real = await realpath(root.path).catch(() => undefined);
      if (!real) {
        ctx.logger.info(`${adapter.label}: ${root.path} does not exist, nothing to read`);
        continue;
      }
      const resolved = { source: root.source, path: real };
      this.resolvedRoots.push(resolved);
      const files = await walkFiles(real, { logger: ctx.logger, accept: (f) => adapter.accepts(f, real) });
      plan.push({ root: resolved, files });
    }
    const totalFiles = plan.reduce((n, p) => n + p.files.length, 0);
    let done = 0;
    for (const { root, files } of plan) {
      const adapter = sourceById(root.source)!;
      const loaded: Session[] = [];
      for (const file of files) {
        try {
          loaded.push(...(await adapter.readFile(file, root.path, ctx)));
        } catch (err) {
          ctx.logger.warn(`${file}: skipped, ${err instanceof Error ? err.message : String(err)}`);
        }
        onProgress?.({ files: ++done, totalFiles, sessions: this.sessions.size + loaded.length });
      }
      await adapter.finalize?.(loaded, [root.path], ctx);
      for (const session of loaded) this.addSession(session);
    }
    this.index.seal();
    ctx.logger.info(`indexed ${this.sessions.size} sessions from ${totalFiles} files`);
  }

  addSession(session: Session): void {
    if (this.sessions.has(session.id) && this.sessions.get(session.id)!.file !== session.file) {
      this.options.logger.warn(`${session.file}: session ${session.id} already read from ${this.sessions.get(session.id)!.file}, kept the first`);
      return;
    }
    this.sessions.set(session.id, session);
    const content: string[] = [];
    const messages: string[] = [];
    for (const turn of session.turns) {
      if (turn.kind === 'conversation') content.push(turn.text);
      else messages.push(turn.text.length > INDEXED_CHARS_PER_TOOL_TURN ? turn.text.slice(0, INDEXED_CHARS_PER_TOOL_TURN) : turn.text);
    }
    this.index.add(session.id, { topic: session.topic, content, messages }, Date.parse(session.updated) || 0);
    this.titles.add(session.id, session.topic);
  }

  removeSession(id: string): void {
    this.sessions.delete(id);
    this.index.remove(id);
    this.titles.remove(id);
  }

  search(query: string, options: SearchOptions = {}): SearchResponse {
    if (typeof query !== 'string' || !query.trim()) throw new SessionSearchError('Search query is required', 'Search query is required: give one or more words to look for.');
    if (options.role !== undefined && !ROLES.includes(options.role)) {
      throw new SessionSearchError('INVALID_ARGUMENT', `role must be one of ${ROLES.join(', ')}, got "${String(options.role)}".`);
    }
    if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
      throw new SessionSearchError('INVALID_ARGUMENT', `limit must be a positive whole number, got ${String(options.limit)}.`);
    }
    const range = dayRange(options);
    return searchSessions(this, parseQuery(query), query, options, range);
  }

  get(name: string, options: { format?: OutputFormat } = {}): Promise<GetResponse> {
    return getSession(this, name, options.format ?? 'auto');
  }

  list(options: { date?: string; dateFrom?: string; dateTo?: string; limit?: number; source?: string; project?: string; format?: OutputFormat } = {}): ListResponse {
    const range = dayRange(options);
    return listSessions(this, options, (s) => overlaps(range, s.firstDay, s.lastDay));
  }

  read(docid: string, offset = 0): ReadResponse {
    return readDoc(this, docid, offset);
  }

  /** Sessions whose title words start with what was typed: for search-as-you-type. */
  suggestTitles(prefix: string, limit = 20): Session[] {
    return this.titles.search(prefix, limit).map((id) => this.sessions.get(id)!).filter(Boolean);
  }

  searchContext(query: string, options: ContextQuery & { dateFrom?: string; dateTo?: string }) {
    if (typeof query !== 'string' || !query.trim()) throw new SessionSearchError('Search query is required', 'Search query is required: describe what to look for.');
    return searchContext(this, parseQuery(query), dayRange(options), options);
  }

  /** Writes a conversation in CodeArchitect's layout under the first CodeArchitect root and indexes it at once. */
  async store(input: { messages: StoredMessage[]; topic?: string; projectDir?: string }, now = new Date()) {
    if (!input.messages.length) throw new SessionSearchError('INVALID_ARGUMENT', 'conversation is empty: give the text or at least one message.');
    const configured = this.options.roots.find((r) => r.source === 'codearchitect')?.path ?? codeArchitectDefaultRoot(this.options.env ?? process.env);
    await mkdir(configured, { recursive: true });
    const root = await realpath(configured);
    if (!this.resolvedRoots.some((r) => r.source === 'codearchitect' && r.path === root)) this.resolvedRoots.push({ source: 'codearchitect', path: root });
    const written = await storeCodeArchitectSession(root, input, now);
    const ctx = { logger: this.options.logger, env: this.options.env ?? process.env };
    const [session] = await codeArchitectSource.readFile(written.fullPath, root, ctx);
    if (session) this.addSession(session);
    return { ...written, id: session?.id };
  }
}
