/**
 * The library's core, opened by `openCore`: it wires small parts into the interface the facade (core/library.ts, what
 * every front end holds) is built on, and the core's own tests use. The parts: the session catalog (sessions, index, files: library/catalog.ts), the loader
 * (reading, archiving, catching up, live reloads: library/loader.ts), the snapshot scheduler (library/snapshots.ts),
 * the turn store (where each session's turns lie on disk, and the turns read back: store/turn-store.ts), and the
 * answers (search, get, list, read, context: answers.ts) as functions over one view. The caches (turns read back,
 * parsed records kept for live appends, worktree roots) are this library's own: two libraries in one process never
 * share state, and `close` lets them go.
 */
import { ShortForms } from '../index/short-forms.js';
import { createAnswers, type Answers } from '../answer/answers.js';
import type { SearchIndex } from '../index/engine.js';
import { DEFAULT_MAX_FILE_BYTES, INDEXED_CHARS_PER_TOOL_TURN, type LibraryOptions, type LoadProgress } from './options.js';
import { SessionCatalog } from './catalog.js';
import { fieldOf } from './restored-sessions.js';
import { Loader } from './loader.js';
import { storeConversation, type StoreInput } from './store-conversation.js';
import { TagStore } from '../store/tags.js';
import { PreferenceStore } from '../store/preferences.js';
import { SnapshotScheduler } from './snapshots.js';
import { safeLogger } from '../log.js';
import type { ExportFormat, Session } from '../model.js';
import type { GetResponse, IndexingState, ReadResponse, SessionInfo, TurnWindow } from '../contracts.js';
import type { OutputFormat } from '../format.js';
import { Persistence } from '../store/persistence.js';
import { Repairs } from '../store/repairs.js';
import { ParsedFiles } from '../ingest/sources/line-files.js';
import type { SourceRoot } from '../ingest/sources/registry.js';
import type { SourceAdapter } from '../ingest/sources/types.js';
import type { ListedFolder } from '../ingest/walk.js';
import { Archive } from '../store/archive.js';
import { DamagedArrayError } from '../store/disk-array.js';
import { errorMessage, SessionSearchError } from '../errors.js';
import { TurnStore } from '../store/turn-store.js';
import type { LibraryView } from '../answer/view.js';
import type { SemanticIndex } from '../semantic/semantic-index.js';
import { exportSession, type ExportOptions } from '../export.js';
import { WorktreeRoots } from '../answer/worktrees.js';
import { createMeaning } from './meaning.js';
import type { EmbedConfig } from '../embed/config.js';
import type { MeaningLeg, MeaningState } from '../embed/leg.js';
import { parseQuery } from '../index/query.js';
import { addRoot, addRoots, changedFiles } from './added-roots.js';
import { LiveUpdates } from '../ingest/live.js';

/**
 * The watchers start this long after the first load has ended: the answers that waited for the load go first (setting
 * up thousands of watches takes the process's time for a second or more), and what changes meanwhile is found by the
 * watchers' own check as they start (LiveUpdates.start).
 */
const WATCH_AFTER_MS = 1_000;

export { INDEXED_CHARS_PER_TOOL_TURN, type LibraryOptions, type LoadProgress } from './options.js';

export interface LibraryCore extends Omit<Answers, 'read' | 'info' | 'turnWindow'> {
  readonly sessions: Map<string, Session>;
  readonly index: SearchIndex;
  /** The configured roots that exist, resolved. */
  readonly roots: readonly SourceRoot[];
  readonly archive: Archive | undefined;
  readonly persistence: Persistence | undefined;
  /** How far the current load has got; `complete` once it caught up with every file. */
  readonly indexing: Readonly<IndexingState>;
  /**
   * The watchers that keep it fresh (`watch` given), started and closed by the library. They start once the first load
   * has ended however it ended: a load that stopped short (the memory limit, a failing disk) answers from what it has
   * and still takes in what changes afterwards, so a new session is never left out because an old one was.
   */
  readonly live: LiveUpdates | undefined;
  /** The semantic leg: its state, and `settled()` once no model is being learned. */
  readonly semantic: SemanticIndex;
  /** Meaning from the user's own model, when one is configured: its state, and `settled()` once nothing is left to embed. */
  readonly meaning: MeaningLeg | undefined;
  /** Uses the embedding model a config names (undefined: none); another model's vectors are made in the background. */
  useModel(config: EmbedConfig | undefined): void;
  /** Where the turns of the sessions it holds are read: from memory, or from where it stored them (store/turn-store.ts). */
  readonly turns: TurnStore;
  /** Asks the user's model for a query's vector, so that the search of it that follows ranks by it too (no model: nothing). */
  prepare(query: string): Promise<void>;
  /** Settles once queries can be answered: right after a snapshot is restored, or at the end of a first load. */
  readonly answerable: Promise<void>;
  /**
   * Settles once the load knows what it has to read: from then on answers that may miss something say so
   * (`indexing`). Before it, a warm start answers from its snapshot as it was written.
   */
  readonly counted: Promise<void>;
  /** Settles when a load has finished (caught up with every changed file), or failed. */
  readonly loaded: Promise<void>;
  /** Restores the snapshot, then reads what changed since (see Loader.load). */
  load(onProgress?: (p: LoadProgress) => void, signal?: AbortSignal): Promise<void>;
  /**
   * What front ends wait for before answering: the load to finish, but no longer than `graceMs` after the snapshot was
   * restored (by default not at all: a warm start answers from the snapshot at once, and what changed since becomes
   * searchable as it is read, within a second or two of starting).
   */
  ready(graceMs?: number): Promise<void>;
  /** One session; when its stored turns turned out damaged while answering, answers again once its transcript is read. */
  get(name: string, options?: { format?: OutputFormat }): Promise<GetResponse>;
  /** A page of a session or turn; one the first load has not reached yet is read on demand (as `get`). */
  read(docid: string, offset?: number): Promise<ReadResponse>;
  /** What a listing says of one session (`resume` reads its command there), found as `get` finds it. */
  info(name: string): Promise<SessionInfo>;
  /** Turns `from`..`to` of a session for the reader (`Answers.turnWindow`), again once a repair its reading started is done. */
  turnWindow(id: string, from: number, to: number, query?: string): Promise<TurnWindow | undefined>;
  /**
   * `first`, or, where a repair is under way (a damaged stored copy found while answering, its transcript being read
   * again), `again()` once it is done: for answers whose snippets read turns, so none shows a session without them.
   */
  afterRepairs<T>(first: T, again: () => T | Promise<T>): Promise<T>;
  /** One session as Markdown, a self-contained HTML page or JSON (core/export.ts). */
  export(name: string, format: ExportFormat, options?: ExportOptions): Promise<{ id: string; text: string }>;
  reloadFile(file: string): Promise<void>;
  markSourceDeleted(file: string): void;
  /** Files under `roots` (all of them by default) that changed, appeared or vanished since they were read. */
  changedFiles(roots?: readonly SourceRoot[]): Promise<string[]>;
  filesUnder(folder: string): string[];
  accepts(adapter: SourceAdapter, file: string, root: string, folder?: ListedFolder): boolean;
  store(input: StoreInput, now?: Date): ReturnType<typeof storeConversation>;
  /**
   * Reads a root added while the library runs (a window's workspace folder), once the first load is done, and keeps it
   * among `roots` until `dropRoot`; the caller watches it. Undefined when it does not exist; the root already read when
   * it is one.
   */
  addRoot(root: SourceRoot): Promise<SourceRoot | undefined>;
  /** `addRoot` for several at once: the roots of one folder are walked once. */
  /** With `signal`: the walk stops when it aborts (the clients that named the roots are gone). */
  addRoots(roots: readonly SourceRoot[], signal?: AbortSignal): Promise<(SourceRoot | undefined)[]>;
  /** No longer reads a root added by `addRoot`; its sessions stay (the archive keeps them) until a restart. */
  dropRoot(root: SourceRoot): void;
  purgeArchive(): Promise<void>;
  /** Discards the snapshot and reads every root again (through the archive); answers go on from what is read. */
  rebuild(): Promise<void>;
  /** Writes the snapshot now (when this process is the writer). */
  saveSnapshot(): Promise<void>;
  /** Stops watching, writes pending changes, gives up the writer lock and open files, and lets the caches go. */
  close(): Promise<void>;
}

/** A library made with `watch`: its watchers exist (started once the first load has ended, however it ended). */
export type WatchedCore = LibraryCore & { readonly live: LiveUpdates };
export function openCore(given: LibraryOptions & { watch: Exclude<LibraryOptions['watch'], false | undefined> }): WatchedCore;
export function openCore(given: LibraryOptions): LibraryCore;
export function openCore(given: LibraryOptions): LibraryCore {
  // Every line the engine logs is made safe once, here: no parser snippet of a transcript, secrets masked.
  const options: LibraryOptions = { ...given, maxFileBytes: given.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, logger: safeLogger(given.logger) };
  const { logger, dataDir } = options;
  const parsedFiles = new ParsedFiles();
  const worktrees = new WorktreeRoots();
  const archive = dataDir && options.archive !== false ? new Archive(dataDir, logger) : undefined;
  // the parts refer to each other through callbacks that run only once the library is built
  const repairs = new Repairs((file) => load.reloadFile(file), logger);
  const turns = new TurnStore(logger, (session) => repairs.request(session));
  const persistence =
    dataDir && options.snapshot !== false
      ? new Persistence(
          dataDir,
          Persistence.configKey({
            exclude: options.exclude ?? [],
            maxFileBytes: options.maxFileBytes ?? null,
            archive: archive !== undefined,
            indexed: INDEXED_CHARS_PER_TOOL_TURN,
          }),
          logger,
          archive?.dir,
          turns,
        )
      : undefined;
  // a learned model is written at once, in its own small file: a process asked to stop has seconds (an MCP client
  // kills its server 4 s after closing it), too few to write a large snapshot
  const catalog: SessionCatalog = new SessionCatalog(
    logger,
    archive !== undefined,
    () => snapshots.changed(),
    true,
    () => void snapshots.saveSemantic(),
    worktrees,
    persistence && ((s) => persistence.lists.of(s, 'files')),
  );
  const snapshots = new SnapshotScheduler(persistence, catalog, logger, options.snapshotDelayMs);
  const load = new Loader({ options, catalog, snapshots, archive, persistence, turns, parsedFiles });
  snapshots.onDamaged = (reason) => void load.rebuild(reason);
  const meaning = createMeaning(options, catalog, persistence, turns);
  // rebuilt when the index changed (sessions added or removed)
  let shortForms: { at: number; forms: ShortForms } | undefined;
  const view: LibraryView = {
    sessions: catalog.sessions,
    turns,
    get index() {
      return catalog.index;
    },
    roots: load.roots,
    worktrees,
    semantic: catalog.semantic,
    get meaning() {
      return catalog.meaning;
    },
    files: catalog.files,
    titles: () => catalog.titles(),
    shortForms: () => {
      const at = catalog.index.changeCount;
      if (shortForms?.at !== at) shortForms = { at, forms: new ShortForms([...fieldOf(catalog.sessions, 'acronyms')].flatMap((a) => a ?? [])) };
      return shortForms.forms;
    },
    decisionsOf: (s) => (persistence ? persistence.lists.of(s, 'decisions') : s.decisions),
    preferencesOf: (s) => (persistence ? persistence.lists.of(s, 'preferences') : s.preferences),
    tags: new TagStore(dataDir),
    preferences: new PreferenceStore(dataDir),
  };
  const answers = createAnswers(view);
  /**
   * An answer about the session `name`: where the first load has not reached it yet, its files are read at once and it
   * is asked again; where reading its turns found their stored copy damaged, it is asked again once the transcript has
   * been read anew (store/repairs.ts).
   */
  const aboutSession = async <T>(name: string, answer: () => T | Promise<T>): Promise<T> => {
    const first = await Promise.resolve()
      .then(answer)
      .catch(async (err: unknown) => {
        if (err instanceof SessionSearchError && err.code === 'FILE_NOT_FOUND' && (await load.readNamed(name))) return answer();
        throw err;
      });
    return afterRepairs(first, answer);
  };
  /** `first`, or where a repair is under way (started by reading the turns it holds), the answer asked again after it. */
  const afterRepairs = async <T>(first: T, answer: () => T | Promise<T>): Promise<T> => {
    if (!repairs.busy) return first;
    await repairs.settled();
    return answer();
  };
  // After a load the semantic leg may learn; sessions restored without a bag get one from their turns first.
  let closed = false;
  void load.loaded.then(() => {
    if (closed) return;
    catalog.semantic.fill(
      [...catalog.sessions.keys()],
      (id) => catalog.sessions.get(id),
      (s) => turns.conversation(s),
    );
    catalog.semantic.release();
    meaning.release();
  });
  // Index arrays left on disk are checked as read: damage found while answering rebuilds the index, and says so.
  const guarded =
    <A extends unknown[], R>(run: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return run(...args);
      } catch (err) {
        if (!(err instanceof DamagedArrayError)) throw err;
        void load.rebuild(err.message);
        throw new SessionSearchError('READ_ERROR', 'The index on disk turned out damaged and is being rebuilt from the archive: try again in a moment.');
      }
    };
  // While a load runs, answers cover what is indexed so far and say how far that is.
  // ...and, while the user's model embeds the sessions (or cannot), how far that is
  const embedding = (): { embeddings: MeaningState } | undefined => {
    const state = catalog.meaning?.state;
    return state && state.status !== 'ready' ? { embeddings: state } : undefined;
  };
  // ...and, where the data folder cannot be written, that nothing is kept (storage-state.ts)
  const partial = <T extends object>(answer: T): T => {
    const storage = persistence?.storage.problem;
    const out = load.partial ? { ...answer, indexing: { ...load.indexing } } : answer;
    return storage ? { ...out, storage } : out;
  };
  const searched = <T extends object>(answer: T): T => ({ ...partial(answer), ...embedding() });
  const search = guarded(answers.search);
  const searchPlan = guarded(answers.searchPlan);
  const searchContext = guarded(answers.searchContext);
  const library: LibraryCore = {
    ...answers,
    search: (query, options) => searched(search(query, options)),
    plan: guarded(answers.plan),
    searchPlan: (plan, raw) => searched(searchPlan(plan, raw)),
    searchContext: (query, options) => searched(searchContext(query, options)),
    searchWorkspaces: guarded(answers.searchWorkspaces),
    searchGrouped: (query, options) => guarded(answers.searchGrouped)(query, options).then(partial),
    list: (options) => partial(answers.list(options)),
    fileHistory: (query) => partial(answers.fileHistory(query)),
    preferences: (options) => partial(answers.preferences(options)),
    updatePreferences: (changes) => answers.updatePreferences(changes).then(partial),
    indexing: load.indexing,
    semantic: catalog.semantic,
    get meaning() {
      return catalog.meaning;
    },
    useModel: (config) => meaning.use(config),
    turns,
    prepare: async (query) => {
      const meaning = catalog.meaning;
      const text = meaning && parseQuery(query).text;
      if (text) await meaning.prepare(text);
    },
    sessions: catalog.sessions,
    get index() {
      return catalog.index;
    },
    roots: load.roots,
    archive,
    persistence,
    answerable: load.answerable,
    counted: load.counted,
    loaded: load.loaded,
    load: (onProgress, signal) => load.load(onProgress, signal),
    ready: (graceMs = 0) => Promise.race([load.loaded, load.answerable.then(() => new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref()))]),
    get: (name, opts = {}) => aboutSession(name, () => answers.get(name, opts)),
    info: (name) => aboutSession(name, () => answers.info(name)),
    // (a page says found: false rather than throwing; read again as aboutSession reads: once its files are read, and
    // once a repair its reading started is done, so that a damaged stored copy never answers a page without its turns;
    // the reader's window likewise)
    async read(docid, offset) {
      const page = answers.read(docid, offset);
      return afterRepairs(page.found || !(await load.readNamed(docid)) ? page : answers.read(docid, offset), () => answers.read(docid, offset));
    },
    afterRepairs,
    turnWindow: async (id, from, to, query) => afterRepairs(answers.turnWindow(id, from, to, query), () => answers.turnWindow(id, from, to, query)),
    // (found as get finds it, and rendered once: it was rendered for get first, to learn its id)
    export: (name, format, exportOptions = {}) =>
      aboutSession(name, () => {
        const found = catalog.sessions.get(answers.info(name).id);
        if (!found) throw new SessionSearchError('FILE_NOT_FOUND', `No session named "${name}".`);
        return { id: found.id, text: exportSession(found, turns.all(found), format, exportOptions) };
      }),
    reloadFile: (file) => load.reloadFile(file),
    markSourceDeleted: (file) => catalog.markSourceDeleted(file),
    changedFiles: (roots) => changedFiles(load, catalog, roots),
    filesUnder: (folder) => catalog.filesUnder(folder),
    accepts: (adapter, file, root, folder) => load.accepts(adapter, file, root, folder),
    store: (input, now) => storeConversation(options, load, catalog, input, now),
    addRoot: (root) => addRoot(load, catalog, root, logger),
    addRoots: (roots, signal) => addRoots(load, catalog, roots, logger, signal),
    dropRoot: (root) => {
      const at = load.roots.indexOf(root);
      if (at >= 0) load.roots.splice(at, 1);
    },
    purgeArchive: () => load.purgeArchive(),
    rebuild: () => load.rebuild('asked to rebuild'),
    saveSnapshot: () => snapshots.saveNow(),
    get live() {
      return live;
    },
    async close() {
      closed = true;
      await load.close();
      await live?.close();
      catalog.semantic.close();
      await meaning.close();
      await snapshots.close();
      await persistence?.close();
      catalog.index.close();
      turns.clear();
      parsedFiles.clear();
      worktrees.clear();
    },
  };
  // once the first load has ended (complete or stopped short), what changes is read again as it is written
  const live = options.watch ? new LiveUpdates(library, { ...(options.watch === true ? {} : options.watch), logger }) : undefined;
  if (live)
    void load.loaded.then(() =>
      setTimeout(() => {
        if (!closed) live.start().catch((err: unknown) => logger.warn(`watching for changes failed: ${errorMessage(err)}`));
      }, WATCH_AFTER_MS),
    );
  return library;
}
