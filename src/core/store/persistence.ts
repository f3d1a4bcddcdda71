/**
 * What a library keeps in its data folder between runs, and who may write it: the writer lock, the index snapshot
 * (read at start-up, written after a load that changed something and a while after live changes), and the open
 * snapshot file that restored sessions read their turns from.
 */
import { snapshotFile } from './index-files.js';
import { errorMessage } from '../errors.js';
import { MASK_RULES_VERSION } from '../mask.js';
import { READ_RULES_VERSION } from '../model.js';
import { createHash } from 'node:crypto';
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { DEFAULT_RANKING, SearchIndex } from '../index/engine.js';
import type { Logger } from '../log.js';
import { FIRST_PROMPT_CHARS, firstPrompt, turnCount, type Session } from '../model.js';
import { archiveLocation } from './archive.js';
import { decodeSemantic, encodeSemantic, type SemanticData } from '../semantic/semantic-file.js';
import { WriterLock } from './lock.js';
import { removeUnfinished } from './unfinished.js';
import { LIST_KEYS, RestoredLists, type ListKey, type ListSections } from './restored-lists.js';
import { removeSnapshot } from './snapshot-written.js';
import { readSnapshot, SNAPSHOT_VERSION, SnapshotError, writeSnapshot, type ManifestEntry, type SessionSource, type SnapshotLists } from './snapshot.js';
import { completeSession } from './compact-header.js';
import type { HeaderSessions } from './header-columns.js';
import type { RestoredRows } from '../library/restored-sessions.js';
import { TurnFile, type TurnPlace } from './turns.js';
import type { TurnStore } from './turn-store.js';
import { makePrivateDir, PRIVATE } from './private.js';
import { StorageState } from './storage-state.js';

export interface Restored {
  index: SearchIndex;
  /** The sessions, each made when first asked for. */
  rows: RestoredRows;
  files: ManifestEntry[];
  /** The semantic leg as saved with the snapshot (semantic/semantic-file.ts), when there is a usable one. */
  semantic?: SemanticData;
  /** Written by a load that had not finished (a checkpoint). */
  partial: boolean;
}

/** Old snapshot files are closed this long after a newer one replaced them, so reads in flight finish first. */
const CLOSE_OLD_AFTER_MS = 10_000;

export class Persistence {
  readonly lock: WriterLock;
  /** Whether the data folder could be written the last time it was tried (the lock, a snapshot). */
  readonly storage: StorageState;
  readonly path: string;
  private readonly semanticFile: string;
  private readonly archivePrefix: string;
  private turnFile: TurnFile | undefined;
  /** Files replaced by a newer snapshot, closed shortly after (or at close). */
  private readonly retiring = new Set<TurnFile>();
  /** Set by close: nothing is written after it (a write still asked for would take the writer lock again). */
  private closed = false;
  /** What restored sessions hold in the snapshot's sections, read when first asked for (store/restored-lists.ts). */
  readonly lists = new RestoredLists();

  constructor(
    private readonly dataDir: string,
    private readonly config: string,
    private readonly logger: Logger,
    /** The archive folder whose entries hold the turns of archived sessions (none: the snapshot holds them all). */
    private readonly archiveDir: string | undefined,
    /** The library's turn store: it reads restored sessions' turns from where this tells it they lie. */
    private readonly turns: TurnStore,
  ) {
    this.storage = new StorageState(dataDir, logger);
    this.lock = new WriterLock(dataDir, logger, this.storage);
    this.path = Persistence.snapshotPath(dataDir);
    this.semanticFile = Persistence.semanticPath(dataDir);
    // entry names were checked when the snapshot was read (plain file names): joined by concatenation, 10,000 at start
    this.archivePrefix = archiveDir ? join(archiveDir, sep) : '';
  }

  /** Where a data folder keeps its snapshot. */
  static snapshotPath(dataDir: string): string {
    return snapshotFile(dataDir);
  }

  /** Where the semantic leg's bags are kept beside the snapshot. */
  static semanticPath(dataDir: string): string {
    return join(dataDir, 'index', 'semantic.bin');
  }

  /** Bytes of the snapshot on disk (0 when there is none). */
  static async snapshotBytes(dataDir: string): Promise<number> {
    return (await stat(Persistence.snapshotPath(dataDir)).catch(() => undefined))?.size ?? 0;
  }

  /** Removes the snapshot (after the archive was purged, so sessions kept only by the archive do not come back). */
  static async discard(dataDir: string): Promise<void> {
    await removeSnapshot(Persistence.snapshotPath(dataDir));
    await rm(Persistence.semanticPath(dataDir), { force: true });
  }

  /** A key of everything that changes what a snapshot holds besides the transcripts themselves. */
  static configKey(parts: object): string {
    // what was indexed under older masking rules is indexed again (the snapshot holds their terms)
    const text = JSON.stringify({ snapshot: SNAPSHOT_VERSION, ranking: DEFAULT_RANKING, masked: MASK_RULES_VERSION, read: READ_RULES_VERSION, ...parts });
    return createHash('sha256').update(text).digest('hex').slice(0, 16);
  }

  /** The snapshot file's size (0 where there is none). */
  snapshotBytes(): number {
    return statSync(this.path, { throwIfNoEntry: false })?.size ?? 0;
  }

  /** The last snapshot, or undefined (none yet, or unusable: the reason is logged and it will be rebuilt). */
  async restore(): Promise<Restored | undefined> {
    // the semantic leg's file is read while the snapshot is
    const semanticBytes = readWhole(this.semanticFile).catch(() => undefined);
    let contents;
    try {
      contents = await readSnapshot(this.path, this.config);
    } catch (err) {
      const why = err instanceof SnapshotError ? err.message : String(err);
      this.logger.warn(`${this.path}: snapshot discarded (${why}); rebuilding the index`);
      return undefined;
    }
    if (!contents) return undefined;
    let index: SearchIndex;
    try {
      index = SearchIndex.fromState(contents.index);
    } catch (err) {
      await contents.handle.close();
      contents.index.close?.();
      this.logger.warn(`${this.path}: snapshot discarded (${errorMessage(err)}); rebuilding the index`);
      return undefined;
    }
    const file = new TurnFile(contents.handle, this.path);
    this.turnFile = file;
    // each session is made when first asked for (library/restored-sessions.ts)
    const { sessions: stored, files } = contents;
    this.lists.use(inFile(file, contents.lists), []);
    const rows: RestoredRows = {
      ids: stored.ids(),
      make: (i) => {
        const session = this.restoredSession(stored, i, file, files);
        this.lists.place(session, i);
        return session;
      },
      field: (name, i) => stored.plain(i, name),
    };
    this.logger.info(`snapshot of ${contents.created}: ${stored.count} sessions from ${files.length} files restored`);
    const bytes = await semanticBytes;
    const semantic = bytes && decodeSemantic(bytes);
    if (bytes && !semantic) this.logger.warn(`${this.semanticFile}: unreadable; the semantic leg is learned again`);
    return { index, rows, files, semantic, partial: contents.partial };
  }

  /** What a session restored from the snapshot holds there and not in itself (written again into the next one). */
  private kept(session: Session): Partial<Pick<Session, ListKey>> | undefined {
    let kept: Partial<Pick<Session, ListKey>> | undefined;
    for (const key of LIST_KEYS) if (this.lists.holds(session, key)) (kept ??= {})[key] = this.lists.of(session, key) as never;
    return kept;
  }

  /** A session whose turns stay on disk until used. */
  private restoredSession(stored: HeaderSessions, i: number, file: TurnFile, files: readonly ManifestEntry[]): Session {
    const firstPrompt = stored.firstPrompt(i);
    const session = completeSession(stored.meta(i), firstPrompt, files) as Session;
    const { at, entry } = stored.turns(i);
    const place: TurnPlace =
      entry && at && this.archiveDir ? { archive: `${this.archivePrefix}${entry}`, at } : { snapshot: file, at: (entry ? undefined : at) ?? [0, 0] };
    this.turns.place(session, place, { count: stored.turnCount(i), firstPrompt });
    return session;
  }

  /**
   * Writes a snapshot of the library when this process holds (or can take) the writer lock. Afterwards every session
   * reads its turns from the new file, which releases the memory of freshly parsed ones.
   */
  async save(index: SearchIndex, sessions: Session[], files: ManifestEntry[], semantic?: () => SemanticData, partial = false): Promise<boolean> {
    if (!(await this.writable())) return false;
    await removeUnfinished(this.path, this.logger);
    const started = performance.now();
    const sources: SessionSource[] = sessions.map((session) => ({
      session,
      turnCount: turnCount(session),
      firstPrompt: firstPrompt(session)?.slice(0, FIRST_PROMPT_CHARS),
      turns: this.turns.snapshotBytes(session),
      archived: this.archiveDir ? (archiveLocation(session) ?? this.turns.archivedPlace(session)) : undefined,
      kept: this.kept(session),
    }));
    const state = index.exportState();
    const changesAt = index.changeCount;
    const written = await writeSnapshot(this.path, this.config, state, sources, files, partial);
    const { turnsAt: positions, arrays } = written;
    // Unchanged while it was written: the index reads its postings from the new file and lets their memory go.
    index.useSnapshotArrays(changesAt, arrays);
    const next = new TurnFile(await open(this.path, 'r'), this.path);
    sources.forEach((s, i) => {
      const at = positions[i];
      const place: TurnPlace = at ? { snapshot: next, at } : { archive: s.archived!.entry, at: s.archived!.at };
      this.turns.place(s.session, place, { count: s.turnCount, firstPrompt: s.firstPrompt });
    });
    // restored sessions read their lists from the new file (what was read from the old one is let go)
    this.lists.use(inFile(next, written.lists), sessions, (s) => this.lists.holdsAny(s));
    const previous = this.turnFile;
    this.turnFile = next;
    // the previous file is closed a little later (a read under way finishes), and by close() if that comes first
    if (previous) {
      this.retiring.add(previous);
      setTimeout(() => void this.retire(previous), CLOSE_OLD_AFTER_MS).unref();
    }
    if (semantic) {
      await writeFile(`${this.semanticFile}.tmp`, encodeSemantic(semantic()), PRIVATE);
      await rename(`${this.semanticFile}.tmp`, this.semanticFile);
    }
    this.logger.info(`snapshot written: ${sessions.length} sessions, ${files.length} files in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    return true;
  }

  /** The vectors of the user's embedding model (embed/vectors.ts): kept beside the snapshot. */
  static embeddingsPath(dataDir: string): string {
    return join(dataDir, 'index', 'embeddings.bin');
  }

  /** Writes the embedding vectors' file from its parts, when this process is the writer (false otherwise). */
  async saveEmbeddings(parts: Buffer[]): Promise<boolean> {
    if (!(await this.writable())) return false;
    const file = Persistence.embeddingsPath(this.dataDir);
    await makePrivateDir(dirname(file));
    await writeFile(`${file}.tmp`, parts, PRIVATE);
    await rename(`${file}.tmp`, file);
    return true;
  }

  /** Writes the semantic leg's file alone, when this process is the writer. */
  async saveSemantic(data: SemanticData): Promise<void> {
    if (!(await this.writable())) return;
    await writeFile(`${this.semanticFile}.tmp`, encodeSemantic(data), PRIVATE);
    await rename(`${this.semanticFile}.tmp`, this.semanticFile);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.lock.releaseLock();
    await this.turnFile?.close();
    this.turnFile = undefined;
    for (const file of this.retiring) await this.retire(file);
  }

  /** Whether this process may write: it holds (or takes) the writer lock, and is not closed (which let the lock go). */
  private async writable(): Promise<boolean> {
    return !this.closed && (await this.lock.tryAcquire());
  }

  private async retire(file: TurnFile): Promise<void> {
    if (this.retiring.delete(file)) await file.close();
  }
}

/** Where a snapshot's lists lie, in the file they were written to. */
function inFile(file: TurnFile, lists: SnapshotLists): ListSections {
  const sections: ListSections = {};
  for (const key of LIST_KEYS) {
    const at = lists[key];
    if (at) sections[key] = { file, ...at };
  }
  return sections;
}

/** The most one read asks for (a read may not ask for 2 GB or more). */
const READ_MAX = 1 << 30;

/**
 * A file's bytes, read whole by one request to the thread pool. (`readFile` reads 512 KB at a time, and each piece
 * waits for this thread: the semantic leg's file, 29 MB at 10,000 sessions, was read only once the snapshot's header
 * had been parsed, and the warm start waited for it.)
 */
async function readWhole(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.allocUnsafeSlow(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, Math.min(size - at, READ_MAX), at);
      if (bytesRead === 0) break; // (cut while read: what was read is all there is, and the file's checksum says so)
      at += bytesRead;
    }
    return bytes.subarray(0, at);
  } finally {
    await handle.close();
  }
}
