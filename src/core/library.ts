/**
 * The composition root of the engine: reads every configured root through its source adapter, masks, indexes, keeps
 * the data folder (archive, snapshot) and stays current as files change; answers.ts answers search / get / list / read
 * for every front end (CLI, MCP server, index server).
 */
import { existsSync } from 'node:fs';
import { mkdir, realpath, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { SessionSearchError } from './errors.js';
import { SearchIndex } from './index/engine.js';
import type { Session } from './model.js';
import type { GetResponse } from './api.js';
import type { OutputFormat } from './format.js';
import { sourceById, type SourceRoot } from './sources/registry.js';
import { isInside, walkFiles } from './walk.js';
import { archiveReads, readFileSessions, type FileRead } from './ingest.js';
import { Archive } from './store/archive.js';
import type { SourceAdapter, SourceContext } from './sources/types.js';
import { excluder } from './exclude.js';
import { storeCodeArchitectSession, type StoredMessage } from './store/codearchitect-store.js';
import { codeArchitectDefaultRoot } from './sources/codearchitect.js';
import { Persistence } from './persistence.js';
import { SessionAnswers } from './answers.js';
import type { ManifestEntry } from './store/snapshot.js';
import { changedEntries, commitBatches, statFiles, type FileState } from './file-state.js';
import { releaseToArchive, type TurnHooks } from './store/turns.js';
import { safeLogger } from './log.js';
import { Repairs } from './repairs.js';
import { INDEXED_CHARS_PER_TOOL_TURN, READ_AHEAD, type KnownFile, type LibraryOptions, type LoadProgress } from './library-options.js';

export { INDEXED_CHARS_PER_TOOL_TURN, type LibraryOptions, type LoadProgress } from './library-options.js';

export class SessionLibrary extends SessionAnswers {
  private searchIndex = new SearchIndex();
  private readonly resolvedRoots: SourceRoot[] = [];
  private readonly missingRoots: SourceRoot[] = [];
  /** Which sessions came from which file, under which root, and the file's state when read. */
  private readonly byFile = new Map<string, KnownFile>();
  readonly archive: Archive | undefined;
  readonly persistence: Persistence | undefined;
  private readonly excluded: (path: string) => boolean;
  /** Something changed since the last snapshot. */
  private dirty = false;
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<unknown> = Promise.resolve();
  /** Transcripts being read again because the copy of their turns on disk turned out damaged. */
  private readonly repairs: Repairs;
  private readonly turnHooks: TurnHooks;
  /** Settles once a restored index holds everything its snapshot had (changes wait for it; queries do not). */
  private indexComplete: Promise<void> = Promise.resolve();
  private markAnswerable!: () => void;
  /**
   * Settles once queries can be answered: right after a snapshot is restored (the rest is caught up while queries run),
   * or at the end of a first load without one.
   */
  readonly answerable = new Promise<void>((resolve) => (this.markAnswerable = resolve));
  private markLoaded!: () => void;
  /** Settles when a load has finished (caught up with every changed file), or failed. */
  readonly loaded = new Promise<void>((resolve) => (this.markLoaded = resolve));

  /**
   * What front ends wait for before answering: the load to finish, but no longer than `graceMs` after the snapshot was
   * restored (by default not at all: a warm start answers from the snapshot at once, and what changed since becomes
   * searchable as it is read, within a second or two of starting).
   */
  ready(graceMs = 0): Promise<void> {
    return Promise.race([this.loaded, this.answerable.then(() => new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref()))]);
  }

  constructor(private readonly options: LibraryOptions) {
    super();
    // Every line the engine logs is made safe once, here: no parser snippet of a transcript, secrets masked.
    this.options = { ...options, logger: safeLogger(options.logger) };
    this.repairs = new Repairs((file) => this.reloadFile(file), this.options.logger);
    this.turnHooks = { logger: this.options.logger, unreadable: (session) => this.repairs.request(session) };
    this.excluded = excluder(options.exclude);
    if (options.dataDir && options.archive !== false) this.archive = new Archive(options.dataDir, this.options.logger);
    if (options.dataDir && options.snapshot !== false) {
      const config = Persistence.configKey({ exclude: options.exclude ?? [], maxFileBytes: options.maxFileBytes ?? null, archive: this.archive !== undefined, indexed: INDEXED_CHARS_PER_TOOL_TURN });
      this.persistence = new Persistence(options.dataDir, config, this.options.logger, this.archive?.dir, this.turnHooks);
    }
  }

  get index(): SearchIndex {
    return this.searchIndex;
  }

  /** Whether this process writes the data folder (archive, snapshot); other processes only read it. */
  private async writable(): Promise<boolean> {
    if (!this.options.dataDir) return false;
    if (!this.persistence) return true;
    return this.persistence.lock.tryAcquire();
  }

  get roots(): readonly SourceRoot[] {
    return this.resolvedRoots;
  }

  /**
   * Restores the snapshot (queries are answered from here on), then reads what changed since: new and modified files,
   * through the archive; files that are gone are marked deleted. Files that fail are logged and skipped. An aborted
   * `signal` stops reading between files; what was read stays indexed.
   */
  async load(onProgress?: (p: LoadProgress) => void, signal?: AbortSignal): Promise<void> {
    try {
      await this.loadAll(onProgress, signal);
    } finally {
      this.markAnswerable();
      this.markLoaded();
    }
  }

  private async loadAll(onProgress?: (p: LoadProgress) => void, signal?: AbortSignal): Promise<void> {
    const ctx = this.context();
    const restored = await this.persistence?.restore();
    const present: SourceRoot[] = [];
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
      present.push(resolved);
    }
    if (restored) {
      this.adopt(restored);
      this.markAnswerable();
      this.indexComplete = this.completeRestored();
      // After answering starts: a damaged entry read before its check is caught by its checksums and repaired.
      await Promise.all([this.checkArchiveEntries(), this.indexComplete]);
    }
    const { plan, seen } = await this.scan(present);
    const changed = plan.map(({ root, files }) => ({ root, files: files.filter((f) => !this.unchanged(f)) }));
    const totalFiles = changed.reduce((n, p) => n + p.files.length, 0);
    const totalBytes = changed.reduce((n, p) => n + p.files.reduce((b, f) => b + f.size, 0), 0);
    let done = 0;
    let bytes = 0;
    const writer = await this.writable();
    for (const { root, files } of changed) {
      for (const batch of commitBatches(root.path, files)) {
        if (signal?.aborted) break;
        await this.readFiles(root, batch, true, writer, signal, (state) => {
          bytes += state.size;
          done++;
          onProgress?.({ files: done, totalFiles, bytes, totalBytes, sessions: this.sessions.size });
        });
      }
    }
    if (signal?.aborted) ctx.logger.warn(`indexing cancelled after ${done} of ${totalFiles} files; the rest is read on the next start`);
    else {
      for (const file of [...this.byFile.keys()]) if (!seen.has(file) && this.isConfigured(this.byFile.get(file)!.root.source, file)) this.markSourceDeleted(file);
      await this.restoreArchived();
    }
    this.index.seal();
    ctx.logger.info(`indexed ${this.sessions.size} sessions: ${done} files read, ${seen.size - totalFiles} unchanged since the snapshot`);
    this.markAnswerable();
    if (this.dirty || !restored) await this.saveSnapshot();
  }

  /**
   * Reads files of one root (from their archive entries when `trustArchive` and they match), a few at a time so reading
   * one overlaps parsing another, then commits them together; stops between batches when `signal` fires.
   */
  private async readFiles(root: SourceRoot, files: FileState[], trustArchive: boolean, writer: boolean, signal: AbortSignal | undefined, onFile: (state: FileState) => void): Promise<void> {
    const ctx = this.context();
    const adapter = sourceById(root.source)!;
    const reads: FileRead[] = [];
    for (let i = 0; i < files.length && !signal?.aborted; i += READ_AHEAD) {
      const batch = files.slice(i, i + READ_AHEAD);
      const results = await Promise.all(
        batch.map((state) =>
          readFileSessions(adapter, state.file, root, ctx, this.archive, trustArchive, this.options.maxFileBytes).catch((err: unknown) => {
            ctx.logger.warn(`${state.file}: skipped, ${err instanceof Error ? err.message : String(err)}`);
            return undefined;
          }),
        ),
      );
      for (const [k, read] of results.entries()) {
        if (read) reads.push(read);
        onFile(batch[k]);
      }
    }
    await this.commit(root, reads, writer);
  }

  /** Takes over a restored snapshot: sessions of roots no longer configured are dropped. */
  private adopt(restored: { index: SearchIndex; sessions: Session[]; files: ManifestEntry[] }): void {
    this.searchIndex = restored.index;
    const keep = new Set<string>();
    for (const f of restored.files) {
      if (!this.isConfigured(f.source, f.file)) continue;
      const root = this.resolvedRoots.find((r) => r.source === f.source && r.path === f.root) ?? { source: f.source, path: f.root };
      this.byFile.set(f.file, { root, ids: f.ids, file: f.file, size: f.size, mtimeMs: f.mtimeMs, ino: f.ino, entry: f.entry });
      for (const id of f.ids) keep.add(id);
    }
    for (const s of restored.sessions) {
      if (keep.has(s.id)) this.sessions.set(s.id, s);
      else this.searchIndex.remove(s.id);
    }
    for (const key of [...keep]) if (!this.sessions.has(key)) this.searchIndex.remove(key);
  }

  /**
   * What the snapshot hands over after answering has begun; when that part turns out damaged, the index is built again
   * from every transcript (through its archive entry).
   */
  private async completeRestored(): Promise<void> {
    try {
      await this.searchIndex.complete();
    } catch (err) {
      this.options.logger.warn(`snapshot discarded (${err instanceof Error ? err.message : String(err)}); rebuilding the index`);
      this.searchIndex = new SearchIndex();
      this.sessions.clear();
      this.titles = undefined;
      for (const known of this.byFile.values()) known.size = -1;
    }
  }

  /** Transcripts whose archive entry changed since the snapshot (damaged, or rewritten) count as changed: read again. */
  private async checkArchiveEntries(): Promise<void> {
    if (!this.archive) return;
    for (const k of await changedEntries([...this.byFile.values()], (file) => this.archive!.entryPath(file))) {
      this.options.logger.warn(`${k.file}: its archive entry changed since the snapshot; reading it again`);
      k.size = -1;
    }
  }

  /** One session; when its stored turns turned out damaged while answering, answers again once its transcript is read. */
  override async get(name: string, options: { format?: OutputFormat } = {}): Promise<GetResponse> {
    const first = await super.get(name, options);
    if (!this.repairs.busy) return first;
    await this.repairs.settled();
    return super.get(name, options);
  }

  /** Whether a file lies under a configured root of its source (existing or not). */
  private isConfigured(source: string, file: string): boolean {
    return [...this.resolvedRoots, ...this.missingRoots].some((r) => r.source === source && isInside(r.path, file));
  }

  /** The file is as it was when last read (size, modification time, identity). */
  private unchanged(state: FileState): boolean {
    const known = this.byFile.get(state.file);
    return known !== undefined && known.size === state.size && known.mtimeMs === state.mtimeMs && known.ino === state.ino;
  }

  /** Writes the snapshot now (when this process is the writer). */
  async saveSnapshot(): Promise<void> {
    if (!this.persistence) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const run = async (): Promise<void> => {
      this.dirty = false;
      const files: ManifestEntry[] = [...this.byFile.values()].map((k) => ({ file: k.file, source: k.root.source, root: k.root.path, size: k.size, mtimeMs: k.mtimeMs, ino: k.ino, ids: [...k.ids], entry: k.entry }));
      try {
        await this.persistence!.save(this.index, [...this.sessions.values()], files);
      } catch (err) {
        this.dirty = true;
        this.options.logger.warn(`snapshot not written (${err instanceof Error ? err.message : String(err)}); the next start reads more files again`);
      }
    };
    const next = this.saving.then(run);
    this.saving = next;
    await next;
  }

  /** After live changes: write the snapshot once things are quiet. */
  private scheduleSave(): void {
    this.dirty = true;
    if (!this.persistence || this.saveTimer) return;
    this.saveTimer = setTimeout(() => void this.saveSnapshot(), this.options.snapshotDelayMs ?? 30_000);
    this.saveTimer.unref();
  }

  /**
   * Deletes the archive: sessions whose transcript is gone leave the index; transcripts still on disk are read again
   * (the archive held their turns), archived again while the archive is on, and the snapshot is written anew.
   */
  async purgeArchive(): Promise<void> {
    if (!this.archive || !this.options.dataDir) return;
    await this.archive.purge();
    await Persistence.discard(this.options.dataDir);
    const again = new Map<SourceRoot, FileState[]>();
    for (const [file, known] of [...this.byFile]) {
      if (known.ids.length && known.ids.every((id) => this.sessions.get(id)?.sourceDeleted === true)) {
        for (const id of known.ids) this.removeSession(id);
        this.byFile.delete(file);
      } else again.set(known.root, [...(again.get(known.root) ?? []), known]);
    }
    // The archive held the turns of every session: transcripts still on disk are read again (and archived again).
    const writer = await this.writable();
    for (const [root, files] of again) await this.readFiles(root, files, false, writer, undefined, () => undefined);
    this.dirty = true;
    await this.saveSnapshot();
  }

  /** Writes pending changes and gives up the writer lock and open files. */
  async close(): Promise<void> {
    if (this.dirty) await this.saveSnapshot();
    await this.saving;
    await this.persistence?.close();
  }

  /**
   * Files that changed, appeared or vanished since they were read: a watcher that starts after a load asks, so that
   * nothing written between the load's walk and the watcher's start is missed.
   */
  async changedFiles(): Promise<string[]> {
    const { plan, seen } = await this.scan(this.resolvedRoots);
    const out = plan.flatMap(({ files }) => files.filter((f) => !this.unchanged(f)).map((f) => f.file));
    for (const [file, known] of this.byFile) {
      if (seen.has(file) || !this.resolvedRoots.some((r) => isInside(r.path, file))) continue;
      if (known.ids.some((id) => this.sessions.get(id)?.sourceDeleted !== true)) out.push(file);
    }
    return out;
  }

  /** Every accepted transcript file under the roots, with its state on disk. */
  private async scan(roots: readonly SourceRoot[]): Promise<{ plan: { root: SourceRoot; files: FileState[] }[]; seen: Set<string> }> {
    const plan: { root: SourceRoot; files: FileState[] }[] = [];
    const seen = new Set<string>();
    for (const root of roots) {
      const adapter = sourceById(root.source)!;
      const files = await statFiles(await walkFiles(root.path, { logger: this.options.logger, accept: (f) => this.accepts(adapter, f, root.path) }));
      for (const f of files) seen.add(f.file);
      plan.push({ root, files });
    }
    return { plan, seen };
  }

  /** Transcript files known under a folder (for a root that disappeared). */
  filesUnder(folder: string): string[] {
    return [...this.byFile.keys()].filter((f) => isInside(folder, f));
  }

  /** Whether a file under a root is read: the adapter recognises it and no exclude pattern names it. */
  accepts(adapter: SourceAdapter, file: string, root: string): boolean {
    return adapter.accepts(file, root) && !this.excluded(file);
  }

  private context(): SourceContext {
    return { logger: this.options.logger, env: this.options.env ?? process.env };
  }

  /** Cross-file fix-ups, archive entries, then the index: the common end of a load and of a reload. */
  private async commit(root: SourceRoot, reads: FileRead[], writer: boolean): Promise<void> {
    await this.indexComplete;
    const ctx = { ...this.context(), previous: (id: string) => this.sessions.get(id) };
    const fresh = reads.filter((r) => r.fresh).flatMap((r) => r.sessions);
    await sourceById(root.source)!.finalize?.(fresh, [root.path], ctx);
    const kept = new Set(fresh);
    for (const read of reads) if (read.fresh) read.sessions = read.sessions.filter((s) => kept.has(s));
    await archiveReads(writer ? this.archive : undefined, reads, ctx, reads.length === 1);
    for (const read of reads) this.replaceFile(read, root);
    // Archived sessions read their turns from the archive from now on: memory holds the index, not the transcripts.
    for (const read of reads) for (const session of read.sessions) releaseToArchive(session, this.turnHooks);
  }

  /** Archived sessions of configured sources whose transcript no longer exists: still searchable, marked deleted. */
  private async restoreArchived(): Promise<void> {
    if (!this.archive) return;
    const known = new Set([...this.byFile.keys()].map((f) => basename(this.archive!.entryPath(f))));
    for (const { entry, meta } of await this.archive.list((name) => !known.has(name))) {
      if (this.byFile.has(meta.file) || !this.isConfigured(meta.source, meta.file)) continue;
      if (await stat(meta.file).catch(() => undefined)) continue; // present but no longer accepted: not ours to show
      const archived = await this.archive.load(entry);
      if (!archived) continue;
      if (archived.damaged) this.options.logger.warn(`${meta.file}: ${archived.damaged} session(s) lost: damaged in the archive and the transcript no longer exists`);
      for (const s of archived.sessions) s.sourceDeleted = true;
      this.replaceFile({ file: meta.file, sessions: archived.sessions, size: meta.size, mtimeMs: meta.mtimeMs, ino: 0 }, { source: meta.source, path: meta.file });
    }
  }

  /** Replaces the sessions that came from one file. */
  private replaceFile(read: Pick<FileRead, 'file' | 'sessions' | 'size' | 'mtimeMs' | 'ino' | 'entry'>, root: SourceRoot): void {
    const { file, sessions } = read;
    const previous = this.byFile.get(file)?.ids ?? [];
    const ids = sessions.map((s) => s.id);
    for (const id of previous) if (!ids.includes(id)) this.removeSession(id);
    for (const s of sessions) this.addSession(s);
    const kept = sessions.map((s) => s.id).filter((id) => this.sessions.get(id)?.file === file);
    this.byFile.set(file, { root, ids: kept, file, size: read.size, mtimeMs: read.mtimeMs, ino: read.ino, entry: read.entry });
    this.scheduleSave();
  }

  /** Reads one file again after it changed (or appeared); a file that vanished keeps its sessions, marked deleted. */
  async reloadFile(file: string): Promise<void> {
    const ctx = { ...this.context(), live: true };
    const root = this.byFile.get(file)?.root ?? this.resolvedRoots.find((r) => isInside(r.path, file) && this.accepts(sourceById(r.source)!, file, r.path));
    if (!root) return;
    if (!(await stat(file).catch(() => undefined))) {
      this.markSourceDeleted(file);
      return;
    }
    try {
      const read = await readFileSessions(sourceById(root.source)!, file, root, ctx, this.archive, false, this.options.maxFileBytes);
      await this.commit(root, [read], await this.writable());
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
      if (!s || s.sourceDeleted) continue;
      if (this.archive) s.sourceDeleted = true;
      else this.removeSession(id);
      this.scheduleSave();
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
    this.titles?.add(session.id, session.topic);
  }

  removeSession(id: string): void {
    this.sessions.delete(id);
    this.index.remove(id);
    this.titles?.remove(id);
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
