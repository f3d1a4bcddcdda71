/**
 * The loader: reads every configured root through its source adapter (from archive entries where they match), masks,
 * archives, and hands the sessions to the catalog; restores the snapshot first, so queries are answered while it
 * catches up; reads single files again as they change, and the whole history again when asked.
 */
import { stat } from 'node:fs/promises';
import { errorMessage } from '../errors.js';
import { transcriptTest, type TranscriptTest } from '../ingest/exclude.js';
import { scanRoots, type FileState, type Scan } from '../ingest/file-state.js';
import { purgeArchive, readChangedEntriesAgain, restoreArchivedOnly } from './archive-checks.js';
import { archiveReads, readBatch, readFileSessions, type FileRead, type ReadOptions } from '../ingest/read-files.js';
import { scanAside } from '../ingest/scan-aside.js';
import { readBatches } from './load-batches.js';
import { afterLoad, SCAN_ASIDE_MIN_BYTES, type LibraryOptions, type LoadProgress } from './options.js';
import type { IndexingState } from '../contracts.js';
import { Persistence } from '../store/persistence.js';
import { resolveConfiguredRoots } from './added-roots.js';
import type { ParsedFiles } from '../ingest/sources/line-files.js';
import type { SourceId } from '../model.js';
import { sourceById, type SourceRoot } from '../ingest/sources/registry.js';
import type { SourceAdapter, SourceContext } from '../ingest/sources/types.js';
import type { Archive } from '../store/archive.js';
import { DamagedArrayError } from '../store/disk-array.js';
import type { TurnStore } from '../store/turn-store.js';
import { isInside, type ListedFolder } from '../ingest/walk.js';
import { PendingFiles } from './pending-files.js';
import type { SessionCatalog } from './catalog.js';
import type { SnapshotScheduler } from './snapshots.js';

/** What the loader works with: the library's parts and caches. */
export interface LoaderParts {
  options: LibraryOptions;
  catalog: SessionCatalog;
  snapshots: SnapshotScheduler;
  archive: Archive | undefined;
  persistence: Persistence | undefined;
  turns: TurnStore;
  parsedFiles: ParsedFiles;
}

const rootKey = (root: SourceRoot): string => `${root.source}\0${root.path}`;

export class Loader {
  readonly roots: SourceRoot[] = [];
  private readonly missingRoots: SourceRoot[] = [];
  private readonly accept: TranscriptTest;
  /** The archive entry names the walk gave, and the entries it listed that none of its files names (archive-checks.ts). */
  private walkEntries: Pick<Scan, 'entryName' | 'unnamed'> = {};
  /** Settles once a restored index holds everything its snapshot had (changes wait for it; queries do not). */
  private indexComplete: Promise<void> = Promise.resolve();
  private rebuilding: Promise<void> | undefined;
  /** The load under way; `close` stops it and the rebuild between files and waits for both. */
  private loading: Promise<void> | undefined;
  private readonly closing = new AbortController();
  /** Files the load under way has still to read: a session asked for by name is read from them ahead of its turn. */
  private readonly pending = new PendingFiles();
  /** How far the current load has got (files committed to the catalog): answers given meanwhile say so. */
  readonly indexing: IndexingState = { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, complete: false };
  private markAnswerable!: () => void;
  /** Settles once queries can be answered: right after a snapshot is restored, or at the end of a first load. */
  readonly answerable = new Promise<void>((resolve) => (this.markAnswerable = resolve));
  private markCounted!: () => void;
  /** Settles once the load knows what it has to read (the files that changed since the snapshot, or all of them). */
  readonly counted = new Promise<void>((resolve) => (this.markCounted = resolve));
  private markLoaded!: () => void;
  /** Settles when a load has finished (caught up with every changed file), or failed. */
  readonly loaded = new Promise<void>((resolve) => (this.markLoaded = resolve));

  constructor(private readonly parts: LoaderParts) {
    this.accept = transcriptTest(parts.options.exclude);
  }

  private get catalog(): SessionCatalog {
    return this.parts.catalog;
  }

  private get logger() {
    return this.parts.options.logger;
  }

  /**
   * Restores the snapshot (queries are answered from here on), then reads what changed since: new and modified files,
   * through the archive; files that are gone are marked deleted. Files that fail are logged and skipped. An aborted
   * `signal` stops reading between files; what was read stays indexed.
   */
  load(onProgress?: (p: LoadProgress) => void, signal?: AbortSignal): Promise<void> {
    const stop = this.stopping(signal);
    const loading = (async () => {
      let restored: { scanning?: Promise<Scan> } | undefined;
      // (a session asked for by name while the snapshot is restored waits for the walk, and is read from its files)
      const walked = this.pending.expectWalk();
      try {
        restored = await this.loadAll(onProgress, stop);
      } finally {
        walked();
        this.markAnswerable();
        this.markCounted();
        this.markLoaded();
      }
      // after the load: what it says is complete does not wait for the archive's check (see checkArchiveEntries), nor
      // do the answers that waited for the load
      if (!restored || stop.aborted) return;
      await afterLoad(stop);
      if (!stop.aborted) await this.checkArchiveEntries(restored.scanning);
    })();
    this.loading = loading;
    return loading;
  }

  /** Stops a load or rebuild under way between two files and waits for it (what it read is written first). */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([this.loading, this.rebuilding]);
  }

  /** A caller's signal, aborted also when the library closes. */
  private stopping(signal: AbortSignal | undefined): AbortSignal {
    return signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal;
  }

  /** The load; where it restored a snapshot, returns the walk (if on a thread) whose archive entries are checked after it. */
  private async loadAll(onProgress?: (p: LoadProgress) => void, signal?: AbortSignal): Promise<{ scanning?: Promise<Scan> } | undefined> {
    await this.resolveRoots();
    // a large history's roots are walked on another thread while its snapshot is restored here
    const scanning = this.walksAside ? scanAside(this.roots, this.parts.options.exclude, this.logger, this.parts.archive?.dir) : undefined;
    const restored = await this.parts.persistence?.restore();
    this.restoredPartial = restored?.partial === true;
    let checked: Promise<unknown> = Promise.resolve();
    if (restored) {
      // a file recorded under a root still configured is kept without asking which root holds it (10,000 path checks)
      const configured = new Map(this.roots.map((r) => [`${r.source}\0${r.path}`, r]));
      this.catalog.adopt(
        restored,
        (f) => configured.get(`${f.source}\0${f.root}`) ?? (this.isConfigured(f.source, f.file) ? { source: f.source, path: f.root } : undefined),
      );
      this.markAnswerable();
      // the queries that waited for the restore are answered before the checks below take their turns
      await new Promise((resolve) => setImmediate(resolve));
      this.indexComplete = this.completeRestored();
      // The roots are walked meanwhile; what changed is told apart once the restored index is whole.
      checked = this.indexComplete;
    }
    try {
      await this.catchUp(onProgress, signal, checked, scanning);
    } catch (err) {
      // A snapshot unchanged since it was written (same size, time and inode) is not checked block by block before
      // answering; bytes damaged since (the disk's own fault) are found when read, here while a change removes a session
      if (!(err instanceof DamagedArrayError)) throw err;
      await this.rebuild(err.message, onProgress, signal);
    }
    this.walkEntries = {}; // (a load stopped before its look for archived-only sessions)
    // A first load writes its snapshot before it says it is complete. A warm start that read changes leaves them to
    // the write that follows a quiet while (snapshots.ts): at 50,000 sessions a write takes about 23 s, and its first
    // complete answer waited for it whenever a transcript had changed since the engine last stopped.
    if (!restored) await this.parts.snapshots.saveNow();
    return restored ? { scanning } : undefined;
  }

  /** Reads what changed since the catalog was last current: new and modified files, and files that are gone. */
  private async catchUp(
    onProgress?: (p: LoadProgress) => void,
    signal?: AbortSignal,
    checked: Promise<unknown> = Promise.resolve(),
    scanning?: Promise<Scan>,
  ): Promise<void> {
    const scanned = this.pending.expectWalk();
    try {
      await this.readChanged(scanned, onProgress, signal, checked, scanning);
    } finally {
      scanned();
    }
  }

  private async readChanged(
    scanned: () => void,
    onProgress: ((p: LoadProgress) => void) | undefined,
    signal: AbortSignal | undefined,
    checked: Promise<unknown>,
    scanning = scanRoots(this.roots, this.logger, (adapter, f, root, folder) => this.accepts(adapter, f, root, folder)),
  ): Promise<void> {
    const [{ plan, seen, entryName, unnamed }] = await Promise.all([scanning, checked]);
    this.walkEntries = { entryName, unnamed };
    this.walkedRoots = new Set(plan.map(({ root }) => rootKey(root)));
    const changed = plan.map(({ root, files }) => ({ root, files: files.filter((f) => !this.catalog.unchanged(f)) }));
    const totalFiles = changed.reduce((n, p) => n + p.files.length, 0);
    const totalBytes = changed.reduce((n, p) => n + p.files.reduce((b, f) => b + f.size, 0), 0);
    let done = 0;
    let bytes = 0;
    Object.assign(this.indexing, { filesDone: 0, filesTotal: totalFiles, bytesDone: 0, bytesTotal: totalBytes, complete: false, stopped: undefined });
    const writer = await this.writable();
    this.pending.fill(changed);
    scanned();
    // A first run answers from here on too, from what is indexed so far (newest sessions first), and says it is partial.
    this.markAnswerable();
    this.markCounted();
    const onFile = (state: FileState): void => {
      bytes += state.size;
      done++;
      onProgress?.({ files: done, totalFiles, bytes, totalBytes, sessions: this.catalog.sessions.size });
    };
    const { snapshots } = this.parts;
    const stopped = await readBatches(
      {
        changed,
        totalFiles,
        options: this.parts.options,
        read: this.readOptions(true, signal, onFile),
        wanted: (file) => this.pending.has(file),
        writable: () => this.writable(),
        hold: (holds) => snapshots.hold(holds),
        commit: (root, reads, writes, carry) => this.commit(root, reads, writes, carry),
        committed: (files) => this.committed(files),
        progress: () => ({ indexBytes: this.catalog.index.postingBytes, filesDone: this.indexing.filesDone }),
        saveNow: () => snapshots.saveNow(),
      },
      writer,
    );
    if (stopped) {
      this.indexing.stopped = stopped;
      this.logger.warn(`indexing stopped: ${stopped}`);
    }
    this.pending.clear();
    if (signal?.aborted) this.logger.warn(`indexing cancelled after ${done} of ${totalFiles} files; the rest is read on the next start`);
    else if (!this.indexing.stopped) {
      const unseen: string[] = [];
      for (const [file, known] of [...this.catalog.byFile]) {
        if (seen.has(file)) continue;
        unseen.push(file);
        if (!this.isConfigured(known.root.source, file)) continue;
        this.catalog.markSourceDeleted(file);
        await this.readSuccessor(known.root.source, file);
      }
      await this.restoreArchived(unseen);
    }
    this.catalog.index.seal();
    this.logger.info(`indexed ${this.catalog.sessions.size} sessions: ${done} files read, ${seen.size - totalFiles} unchanged since the snapshot`);
    this.indexing.complete = !signal?.aborted && !this.indexing.stopped;
    this.markAnswerable();
  }

  /**
   * Whether answers given now may miss something: a load is reading files it found changed (or stopped before the
   * end). Not while a warm start checks for changes, nor once its check found nothing to read.
   */
  get partial(): boolean {
    const i = this.indexing;
    return !i.complete && (i.filesDone < i.filesTotal || i.stopped !== undefined || this.restoredPartial);
  }

  /** The roots the last load walked (a root added while it ran is among them when the walk had not begun). */
  private walkedRoots = new Set<string>();

  /** Whether the last load walked `root` and read every file of it that had changed: nothing of it is left to read. */
  readAll(root: SourceRoot): boolean {
    return this.indexing.complete && this.walkedRoots.has(rootKey(root));
  }

  /** The snapshot restored was a checkpoint of a load that did not finish (killed, crashed, stopped): answers say so until this load has. */
  private restoredPartial = false;

  /** Files read and committed: what answers cover from now on. */
  private committed(files: FileState[]): void {
    for (const f of files) {
      if (!this.pending.delete(f.file)) continue;
      this.indexing.filesDone++;
      this.indexing.bytesDone += f.size;
    }
  }

  /**
   * A session asked for by name (`get`, `read`) that the load under way has not reached: the files whose path names it
   * (a Claude Code or Codex id is in its file name, a CodeArchitect topic is its folder) are read at once. Whether any was.
   */
  async readNamed(name: string): Promise<boolean> {
    const { key, found } = await this.pending.named(name);
    if (!found.length) return false;
    const writer = await this.writable();
    for (const { root, state } of found) {
      await this.readFiles(root, [state], true, writer);
      this.committed([state]);
    }
    this.logger.info(`read ${found.length} file(s) ahead of the load for "${key}"`);
    return true;
  }

  /**
   * The index's arrays on disk turned out damaged (while answering, while a start read what changed, or while the
   * next snapshot was written): the snapshot is discarded and everything read again (through the archive); answers
   * come back as it goes. Concurrent calls share one rebuild.
   */
  rebuild(reason: string, onProgress?: (p: LoadProgress) => void, signal?: AbortSignal): Promise<void> {
    if (this.closing.signal.aborted) return Promise.resolve(); // (the data folder is no longer this library's)
    this.rebuilding ??= (async () => {
      this.logger.warn(`snapshot discarded (${reason}); rebuilding the index`);
      this.catalog.reset();
      if (this.parts.options.dataDir) await Persistence.discard(this.parts.options.dataDir);
      await this.catchUp(onProgress, this.stopping(signal));
      this.parts.snapshots.markDirty();
      await this.parts.snapshots.saveNow();
    })().finally(() => (this.rebuilding = undefined));
    return this.rebuilding;
  }

  private async resolveRoots(): Promise<void> {
    const { found, missing } = await resolveConfiguredRoots(this.parts.options, this.logger);
    this.roots.push(...found);
    this.missingRoots.push(...missing);
  }

  /** What the snapshot hands over after answering began; when that turns out damaged, everything is read again. */
  private async completeRestored(): Promise<void> {
    try {
      await this.catalog.index.complete();
    } catch (err) {
      this.logger.warn(`snapshot discarded (${errorMessage(err)}); rebuilding the index`);
      this.catalog.reset();
    }
  }

  /** After a warm start's load: transcripts whose archive entry changed since the snapshot are read again (archive-checks.ts). */
  private async checkArchiveEntries(scanning?: Promise<Scan>): Promise<void> {
    if (this.parts.archive) await readChangedEntriesAgain(this.catalog, this.parts.archive, this.logger, scanning, (file) => this.reloadFile(file));
  }

  /** Whether this process writes the data folder (archive, snapshot); other processes only read it. */
  private async writable(): Promise<boolean> {
    if (!this.parts.options.dataDir) return false;
    return this.parts.persistence ? this.parts.persistence.lock.tryAcquire() : true;
  }

  /** Reads files of one root (`readBatch`) and commits them together. */
  private async readFiles(root: SourceRoot, files: FileState[], trustArchive: boolean, writer: boolean): Promise<void> {
    await this.commit(root, await readBatch(root, files, this.readOptions(trustArchive)), writer);
  }

  private readOptions(trustArchive: boolean, signal?: AbortSignal, onFile: (state: FileState) => void = () => undefined): ReadOptions {
    const { archive, options } = this.parts;
    return { ctx: this.context(), archive, trustArchive, maxFileBytes: options.maxFileBytes, signal, onFile };
  }

  /** Cross-file fix-ups, archive entries, then the catalog: the common end of a load and of a reload. */
  private async commit(root: SourceRoot, reads: FileRead[], writer: boolean, carry?: Map<string, unknown>): Promise<void> {
    await this.indexComplete;
    const ctx = { ...this.context(), previous: (id: string) => this.catalog.sessions.get(id), carry };
    const fresh = reads.filter((r) => r.fresh).flatMap((r) => r.sessions);
    await sourceById(root.source)!.finalize?.(fresh, [root.path], ctx);
    const kept = new Set(fresh);
    for (const read of reads) if (read.fresh) read.sessions = read.sessions.filter((s) => kept.has(s));
    await archiveReads(writer ? this.parts.archive : undefined, reads, ctx, reads.length === 1);
    for (const read of reads) this.catalog.replaceFile(read, root);
    // Archived sessions read their turns from the archive from now on: memory holds the index, not the transcripts.
    for (const read of reads) for (const session of read.sessions) this.parts.turns.release(session);
  }

  /** Archived sessions whose transcript no longer exists: still searchable, marked deleted (archive-checks.ts). */
  private async restoreArchived(unseen: string[]): Promise<void> {
    const walk = this.walkEntries;
    this.walkEntries = {};
    const isConfigured = (source: string, file: string): boolean => this.isConfigured(source, file);
    if (this.parts.archive) await restoreArchivedOnly(this.catalog, this.parts.archive, this.logger, isConfigured, { ...walk, unseen });
  }

  /** A deleted file's sessions are read from the file that took its place, if its source names one and it exists. */
  private async readSuccessor(source: SourceId, file: string): Promise<void> {
    const next = sourceById(source)?.successor?.(file);
    if (next && next !== file && (await stat(next).catch(() => undefined))) await this.reloadFile(next);
  }

  /** Reads one file again after it changed (or appeared); a file that vanished keeps its sessions, marked deleted. */
  async reloadFile(file: string): Promise<void> {
    const ctx = { ...this.context(), live: this.parts.parsedFiles };
    const root = this.catalog.byFile.get(file)?.root ?? this.roots.find((r) => isInside(r.path, file) && this.accepts(sourceById(r.source)!, file, r.path));
    if (!root) return;
    if (!(await stat(file).catch(() => undefined))) {
      this.catalog.markSourceDeleted(file);
      await this.readSuccessor(root.source, file);
      return;
    }
    try {
      const read = await readFileSessions(sourceById(root.source)!, file, root, ctx, this.parts.archive, false, this.parts.options.maxFileBytes);
      await this.commit(root, [read], await this.writable());
    } catch (err) {
      if (err instanceof DamagedArrayError) await this.rebuild(err.message);
      else ctx.logger.warn(`${file}: not re-read, ${errorMessage(err)}`);
    }
  }

  /**
   * Deletes the archive: sessions whose transcript is gone leave the index; transcripts still on disk are read again
   * (the archive held their turns), archived again while the archive is on, and the snapshot is written anew.
   */
  async purgeArchive(): Promise<void> {
    const { archive, options, snapshots } = this.parts;
    if (!archive || !options.dataDir) return;
    await purgeArchive(this.catalog, archive, options.dataDir, async (again) => {
      const writer = await this.writable();
      for (const [root, files] of again) await this.readFiles(root, files, false, writer);
    });
    snapshots.markDirty();
    await snapshots.saveNow();
  }

  /** Whether walks go on a thread of their own: as the options say, else for a large history (its snapshot's size). */
  private get walksAside(): boolean {
    return this.parts.options.scanAside ?? (this.parts.persistence?.snapshotBytes() ?? 0) >= SCAN_ASIDE_MIN_BYTES;
  }

  /** A walk of `roots` made now: on a thread of its own for a large history (as a start's walk), here otherwise. */
  walk(roots: readonly SourceRoot[]): Promise<Scan> {
    if (this.walksAside) return scanAside(roots, this.parts.options.exclude, this.logger, undefined, true);
    return scanRoots(roots, this.logger, (adapter, f, root, folder) => this.accepts(adapter, f, root, folder));
  }

  /** Whether a file under a root is read: the adapter recognises it and no exclude pattern names it. */
  accepts(adapter: SourceAdapter, file: string, root: string, folder?: ListedFolder): boolean {
    return this.accept(adapter, file, root, folder);
  }

  /** Whether a file lies under a configured root of its source (existing or not). */
  private isConfigured(source: string, file: string): boolean {
    const under = (r: SourceRoot): boolean => r.source === source && isInside(r.path, file);
    return this.roots.some(under) || this.missingRoots.some(under);
  }

  private context(): SourceContext {
    return { logger: this.logger, env: this.parts.options.env ?? process.env };
  }
}
