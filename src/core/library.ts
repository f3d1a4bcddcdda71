/**
 * The composition root of the engine: reads every configured root through its source adapter, masks, indexes, and
 * answers search / get / list / read for every front end (CLI, MCP server, index server).
 */
import { existsSync } from 'node:fs';
import { mkdir, realpath, stat } from 'node:fs/promises';
import type { GetResponse, ListResponse, ReadResponse, SearchOptions, SearchResponse } from './api.js';
import { dayRange, overlaps } from './dates.js';
import { SessionSearchError } from './errors.js';
import type { OutputFormat } from './format.js';
import { SearchIndex } from './index/engine.js';
import { TitleIndex } from './index/title-index.js';
import { parseQuery } from './index/query.js';
import type { Logger } from './log.js';
import { ROLES, TURN_KINDS, type Session, type Turn } from './model.js';
import { getSession, listSessions, readDoc } from './reading.js';
import { searchSessions } from './searching.js';
import { sourceById, type SourceRoot } from './sources/registry.js';
import { isInside, walkFiles } from './walk.js';
import { archiveReads, readFileSessions, type FileRead } from './ingest.js';
import { Archive } from './store/archive.js';
import type { SourceAdapter, SourceContext } from './sources/types.js';
import { excluder } from './exclude.js';
import { searchContext, type ContextQuery } from './context.js';
import { storeCodeArchitectSession, type StoredMessage } from './store/codearchitect-store.js';
import { codeArchitectDefaultRoot } from './sources/codearchitect.js';

/** Tool output beyond this many characters per turn is kept for reading but not indexed. */
export const INDEXED_CHARS_PER_TOOL_TURN = 16 * 1024;

export interface LibraryOptions {
  roots: SourceRoot[];
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  /** The product's own data folder (archive); without one nothing is written. */
  dataDir?: string;
  /** Keep a masked copy of every session in the data folder (default on when there is a data folder). */
  archive?: boolean;
  /** Glob patterns of transcript files never to read. */
  exclude?: string[];
  /** Files larger than this are skipped with a logged reason. */
  maxFileBytes?: number;
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
  private readonly missingRoots: SourceRoot[] = [];
  /** Which sessions came from which file, and under which root. */
  private readonly byFile = new Map<string, { root: SourceRoot; ids: string[] }>();
  readonly archive: Archive | undefined;
  private readonly excluded: (path: string) => boolean;

  constructor(private readonly options: LibraryOptions) {
    this.excluded = excluder(options.exclude);
    if (options.dataDir && options.archive !== false) this.archive = new Archive(options.dataDir, options.logger);
  }

  get roots(): readonly SourceRoot[] {
    return this.resolvedRoots;
  }

  /**
   * Reads every root (through the archive when one is configured), then brings back archived sessions whose source
   * file is gone. Files that fail are logged and skipped; the rest load.
   */
  async load(onProgress?: (p: LoadProgress) => void): Promise<void> {
    const ctx = this.context();
    const plan: { root: SourceRoot; files: string[] }[] = [];
    for (const root of this.options.roots) {
      const adapter = sourceById(root.source);
      if (!adapter) throw new SessionSearchError('INVALID_ARGUMENT', `Unknown source "${root.source}".`);
      const real = await realpath(root.path).catch(() => undefined);
      if (!real) {
        ctx.logger.info(`${adapter.label}: ${root.path} does not exist, nothing to read`);
        this.missingRoots.push(root);
        continue;
      }
      const resolved = { source: root.source, path: real };
      this.resolvedRoots.push(resolved);
      const files = await walkFiles(real, { logger: ctx.logger, accept: (f) => this.accepts(adapter, f, real) });
      plan.push({ root: resolved, files });
    }
    const totalFiles = plan.reduce((n, p) => n + p.files.length, 0);
    let done = 0;
    for (const { root, files } of plan) {
      const reads: FileRead[] = [];
      for (const file of files) {
        try {
          reads.push(await readFileSessions(sourceById(root.source)!, file, root, ctx, this.archive, true, this.options.maxFileBytes));
        } catch (err) {
          ctx.logger.warn(`${file}: skipped, ${err instanceof Error ? err.message : String(err)}`);
        }
        onProgress?.({ files: ++done, totalFiles, sessions: this.sessions.size });
      }
      await this.commit(root, reads);
    }
    await this.restoreArchived();
    this.index.seal();
    ctx.logger.info(`indexed ${this.sessions.size} sessions from ${totalFiles} files`);
  }

  /** Whether a file under a root is read: the adapter recognises it and no exclude pattern names it. */
  accepts(adapter: SourceAdapter, file: string, root: string): boolean {
    return adapter.accepts(file, root) && !this.excluded(file);
  }

  private context(): SourceContext {
    return { logger: this.options.logger, env: this.options.env ?? process.env };
  }

  /** Cross-file fix-ups, archive entries, then the index: the common end of a load and of a reload. */
  private async commit(root: SourceRoot, reads: FileRead[]): Promise<void> {
    const ctx = this.context();
    const fresh = reads.filter((r) => r.fresh).flatMap((r) => r.sessions);
    await sourceById(root.source)!.finalize?.(fresh, [root.path], ctx);
    const kept = new Set(fresh);
    for (const read of reads) if (read.fresh) read.sessions = read.sessions.filter((s) => kept.has(s));
    await archiveReads(this.archive, reads, ctx);
    for (const read of reads) this.replaceFile(read.file, root, read.sessions);
  }

  /** Archived sessions of configured sources whose transcript no longer exists: still searchable, marked deleted. */
  private async restoreArchived(): Promise<void> {
    if (!this.archive) return;
    const configured = [...this.resolvedRoots, ...this.missingRoots];
    for (const { entry, meta } of await this.archive.list()) {
      if (this.byFile.has(meta.file) || !configured.some((r) => r.source === meta.source && isInside(r.path, meta.file))) continue;
      if (await stat(meta.file).catch(() => undefined)) continue; // present but no longer accepted: not ours to show
      const archived = await this.archive.load(entry);
      if (!archived) continue;
      for (const s of archived.sessions) s.sourceDeleted = true;
      this.replaceFile(meta.file, { source: meta.source, path: meta.file }, archived.sessions);
    }
  }

  /** Replaces the sessions that came from one file. */
  private replaceFile(file: string, root: SourceRoot, sessions: Session[]): void {
    const previous = this.byFile.get(file)?.ids ?? [];
    const ids = sessions.map((s) => s.id);
    for (const id of previous) if (!ids.includes(id)) this.removeSession(id);
    for (const s of sessions) this.addSession(s);
    this.byFile.set(file, { root, ids: sessions.map((s) => s.id).filter((id) => this.sessions.get(id)?.file === file) });
  }

  /** Reads one file again after it changed (or appeared); a file that vanished keeps its sessions, marked deleted. */
  async reloadFile(file: string): Promise<void> {
    const ctx = this.context();
    const root = this.byFile.get(file)?.root ?? this.resolvedRoots.find((r) => isInside(r.path, file) && this.accepts(sourceById(r.source)!, file, r.path));
    if (!root) return;
    if (!(await stat(file).catch(() => undefined))) {
      this.markSourceDeleted(file);
      return;
    }
    try {
      const read = await readFileSessions(sourceById(root.source)!, file, root, ctx, this.archive, false, this.options.maxFileBytes);
      await this.commit(root, [read]);
    } catch (err) {
      ctx.logger.warn(`${file}: not re-read, ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The source file is gone: with an archive its sessions stay, marked deleted; without one they leave the index. */
  markSourceDeleted(file: string): void {
    const entry = this.byFile.get(file);
    if (!entry) return;
    for (const id of entry.ids) {
      const s = this.sessions.get(id);
      if (!s) continue;
      if (this.archive) s.sourceDeleted = true;
      else this.removeSession(id);
    }
    if (!this.archive) this.byFile.delete(file);
  }

  addSession(session: Session): void {
    const existing = this.sessions.get(session.id);
    if (existing && existing.file !== session.file) {
      // A renamed or moved transcript takes its sessions along; two live files claiming one id keep the first.
      if (!existing.sourceDeleted && existsSync(existing.file)) {
        this.options.logger.warn(`${session.file}: session ${session.id} already read from ${existing.file}, kept the first`);
        return;
      }
      const old = this.byFile.get(existing.file);
      if (old) old.ids = old.ids.filter((id) => id !== session.id);
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
    if (options.kind !== undefined && !TURN_KINDS.includes(options.kind)) {
      throw new SessionSearchError('INVALID_ARGUMENT', `kind must be one of ${TURN_KINDS.join(', ')}, got "${String(options.kind)}".`);
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

  /** Turns `from`..`to` (exclusive) of a session, for a reader that shows a window around a hit. */
  turnWindow(id: string, from: number, to: number): { turns: Turn[]; total: number } | undefined {
    const s = this.sessions.get(id);
    if (!s) return undefined;
    const start = Math.max(0, Math.floor(from));
    return { turns: s.turns.slice(start, Math.max(start, Math.floor(to))), total: s.turns.length };
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
    await this.reloadFile(written.fullPath);
    return { ...written, id: this.byFile.get(written.fullPath)?.ids[0] };
  }
}
