/**
 * The library every front end holds: the engine (engine/serve.ts), and the CLI, the MCP server and the index server
 * when they answer in their own process. `createLibrary` returns methods only: no map of sessions, no index, archive or
 * snapshot to reach into. It owns what each front end used to wire itself: its live updates (`watch`), its team
 * overlay (team archives opened on first use, searched beside the local one) and the order of its shutdown.
 *
 * Behind it is the library's core (library/open.ts): the catalog, loader, snapshots and turn store, which the core's
 * own modules and the tests of the core use. Nothing outside src/core opens the core (test/unit/facade.test.ts).
 */
import type {
  ContextResponse,
  GetResponse,
  IndexingState,
  StorageProblem,
  ReadResponse,
  SearchOptions,
  SearchResponse,
  TreeSession,
  ArchiveSize,
  TurnWindow,
} from './contracts.js';
import type { ContextQuery } from './answer/context-search.js';
import type { OutputFormat } from './format.js';
import type { MeaningState } from './embed/leg.js';
import type { SourceRoot } from './ingest/sources/registry.js';
import { sourcesReport, type SourceReport } from './library/sources-report.js';
import type { RootWatch, WatchSummary } from './ingest/live.js';
import type { LibraryOptions, LoadProgress } from './library/options.js';
import { openCore, type LibraryCore } from './library/open.js';
import { firstPrompt, turnCount, type Session } from './model.js';
import { isInside } from './ingest/walk.js';
import { isTeamId, type TeamRef } from './team/id.js';
import type { TeamArchive } from './team/archive.js';
import type { PushProgress, PushResult } from './team/push.js';
import type { SemanticState } from './semantic/semantic-index.js';
import { Persistence } from './store/persistence.js';
import { fieldOf } from './library/restored-sessions.js';
import { errorMessage } from './errors.js';

export { INDEXED_CHARS_PER_TOOL_TURN, type LibraryOptions, type LoadProgress } from './library/options.js';

/** What the facade gives as the core gives it (bound to the core). */
const AS_THEY_ARE = [
  'search',
  'searchContext',
  'searchGrouped',
  'searchWorkspaces',
  'decisions',
  'fileHistory',
  'list',
  'info',
  'turnWindow',
  'suggestTitles',
  'preferences',
  'updatePreferences',
  'userTagsOf',
  'userTags',
  'tag',
  'untag',
  'read',
  'export',
  'store',
  'useModel',
  'ready',
  'addRoot',
  'addRoots',
  'dropRoot',
  'rebuild',
  'purgeArchive',
  'saveSnapshot',
] as const;
type Answering = Pick<LibraryCore, (typeof AS_THEY_ARE)[number] | 'load'>;

export type ContextOptions = ContextQuery & { dateFrom?: string; dateTo?: string };

/** How far the load is and how many sessions it holds; `unread`: sessions with lines that could not be read. */
export type LibraryStatus = IndexingState & { sessions: number; unread: number; storage?: StorageProblem };

export interface SessionLibrary extends Answering {
  /**
   * search_session as a front end asks it: the user's model asked for the query's vector first, grouped by workspace
   * when asked, and with a team archive (`team`, or the library's own) its sessions merged in.
   */
  searchAll(query: string, options: SearchOptions, team?: TeamRef): Promise<SearchResponse>;
  /** search_context as a front end asks it, the team archive's blocks beside the local ones. */
  searchContextAll(query: string, options: ContextOptions, team?: TeamRef): Promise<ContextResponse>;
  /** One session; a team id is asked of the team archive. */
  get(name: string, options?: { format?: OutputFormat; team?: TeamRef }): Promise<GetResponse>;
  /** A page of a session or turn, from the team archive for a team id. */
  readAny(docid: string, offset: number, team?: TeamRef): Promise<ReadResponse>;
  /** The turns `from`…`to` of a session as the reader shows them, from the team archive for a team id. */
  turnsOf(id: string, from: number, to: number, query?: string, team?: TeamRef): Promise<TurnWindow | undefined>;
  /** The newest sessions as the tree shows them; with a team archive, its recent sessions too. */
  tree(limit?: number, team?: TeamRef): Promise<TreeSession[]>;
  /** One session's record (a copy), or undefined. */
  session(id: string): Session | undefined;
  /** How many sessions come from a source, lie inside a folder, or were read from one of `files`. */
  countSessions(where: { source?: string; inside?: string; files?: readonly string[] }): number;
  /** Every source, the `configured` roots and imported exports it is read from, and how many sessions each gave. */
  sources(configured: readonly SourceRoot[]): SourceReport[];
  status(): LibraryStatus;
  /** What its watchers hold (undefined: a library that does not watch). */
  watching(): WatchSummary | undefined;
  /** The archive's size and folder, and the snapshot's size. */
  archiveInfo(): Promise<ArchiveSize>;
  /** The semantic leg's state, and once no model is being learned. */
  semanticState(): SemanticState;
  semanticSettled(): Promise<void>;
  /** How far the user's own model is (undefined: none configured). */
  embeddings(): MeaningState | undefined;
  /** Settles once the load knows what it has to read (answers say from then on what they miss). */
  untilCounted(): Promise<void>;
  /** Settles when the load has finished (caught up with every changed file), or failed. */
  untilLoaded(): Promise<void>;
  /** Reads again every file (under `roots`, by default all) that changed since it was read (one not watched). */
  catchUp(roots?: readonly SourceRoot[]): Promise<void>;
  /** Whether `root` is one of the roots the library reads. */
  readsRoot(root: SourceRoot): boolean;
  /**
   * Watches a root added by `addRoot(s)`, or stops watching it (a library made with `watch`; otherwise nothing, and
   * undefined): how it is watched.
   */
  watchRoot(root: SourceRoot): Promise<RootWatch | undefined>;
  unwatchRoot(root: SourceRoot): Promise<void>;
  /** Waits, at most `withinMs`, until the changes the watchers saw are read. */
  changesRead(withinMs?: number): Promise<void>;
  /** Reads now files an answer is about to name that changed before their watcher said so (a transcript deleted). */
  recheck(files: readonly string[]): Promise<void>;
  /** Sends this machine's sessions of `projects` to a team archive (incremental: only what it lacks). */
  pushToTeam(team: TeamRef | undefined, options: { projects: readonly string[]; onProgress?: (p: PushProgress) => void }): Promise<PushResult>;
  /** Stops watching, closes the team archives, writes pending changes, gives up the writer lock and open files. */
  close(): Promise<void>;
}

export function createLibrary(options: LibraryOptions): SessionLibrary {
  const core = openCore(options);
  const teams = new TeamArchives(options);
  const withTeam = (ref: TeamRef | undefined): Promise<TeamArchive> | undefined => teams.open(ref ?? options.team);
  const prepare = async (query: string, mode: SearchOptions['mode']): Promise<void> => {
    if (mode !== 'lexical') await core.prepare(query);
  };
  // the load this library runs, if one was started: closing waits for it (what it read is kept, then written)
  let loading: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  return {
    ...(Object.fromEntries(AS_THEY_ARE.map((name) => [name, (core[name] as (...args: never[]) => unknown).bind(core)])) as Omit<Answering, 'load'>),
    load: (onProgress?: (p: LoadProgress) => void, signal?: AbortSignal) => (loading = core.load(onProgress, signal)),

    // (a search whose snippets found a stored copy damaged searches again once its transcript is read: core.afterRepairs)
    async searchAll(query, o, team) {
      await prepare(query, o.mode);
      const run = async (): Promise<SearchResponse> => {
        if (o.groupBy) return core.searchGrouped(query, o);
        const archive = withTeam(team);
        if (!archive) return core.search(query, o);
        // parsed and expanded once: the local search and the team archive's read the same plan
        const plan = core.plan(query, o);
        return (await archive).search(core.searchPlan(plan, query), plan, o, core.index);
      };
      return core.afterRepairs(await run(), run);
    },
    async searchContextAll(query, o, team) {
      await prepare(query, o.mode);
      const run = async (): Promise<ContextResponse> => {
        const archive = withTeam(team);
        if (!archive || !query.trim()) return core.searchContext(query, o);
        // planned once: the local blocks and the team archive's are found by the same words and forms
        const { source, project, dateFrom, dateTo, mode } = o;
        const plan = core.plan(query, { source, project, dateFrom, dateTo, mode });
        return (await archive).searchContext(core.searchContext(plan, o), plan, o, core.index);
      };
      return core.afterRepairs(await run(), run);
    },
    async get(name, o = {}) {
      const archive = isTeamId(name) ? withTeam(o.team) : undefined;
      return archive ? (await archive).get(name, o.format) : core.get(name, { format: o.format });
    },
    async readAny(docid, offset, team) {
      const archive = isTeamId(docid) ? withTeam(team) : undefined;
      return archive ? (await archive).read(docid, offset) : core.read(docid, offset);
    },
    async turnsOf(id, from, to, query, team) {
      const archive = isTeamId(id) ? withTeam(team) : undefined;
      return archive ? (await archive).turnWindow(id, from, to, query) : core.turnWindow(id, from, to, query);
    },
    async tree(limit, team) {
      const local = treeSessions(core, limit);
      const archive = withTeam(team);
      if (!archive) return local;
      // the tree shows what it can: a team archive that does not answer leaves the local sessions, and says so in the log
      const shared = await (await archive).recent().catch((err: unknown) => {
        options.logger?.warn(`team sessions for the tree: ${errorMessage(err)}`);
        return [];
      });
      return [...local, ...shared].sort(newestFirst);
    },
    session: (id) => {
      const s = core.sessions.get(id);
      return s && { ...s };
    },
    sources(configured) {
      return sourcesReport((where) => this.countSessions(where), configured, options.dataDir);
    },
    countSessions({ source, inside, files }) {
      const named = files && new Set(files);
      let n = 0;
      for (const s of core.sessions.values())
        if ((!source || s.source === source) && (!inside || isInside(inside, s.file)) && (!named || named.has(s.file))) n++;
      return n;
    },
    status() {
      let unread = 0;
      for (const lines of fieldOf(core.sessions, 'unreadLines')) if (lines) unread++;
      const storage = core.persistence?.storage.problem;
      return { ...core.indexing, sessions: core.sessions.size, unread, ...(storage ? { storage } : {}) };
    },
    async archiveInfo() {
      const size = (await core.archive?.size()) ?? { bytes: 0, entries: 0 };
      const snapshotBytes = options.dataDir ? await Persistence.snapshotBytes(options.dataDir) : 0;
      return { enabled: core.archive !== undefined, dir: core.archive?.dir ?? '', ...size, snapshotBytes };
    },
    watching: () => core.live?.summary(),
    semanticState: () => core.semantic.state,
    semanticSettled: () => core.semantic.settled(),
    embeddings: () => core.meaning?.state,
    untilCounted: () => core.counted,
    untilLoaded: () => core.loaded,
    async catchUp(roots) {
      for (const file of await core.changedFiles(roots)) await core.reloadFile(file);
    },
    readsRoot: (root) => core.roots.some((r) => r.source === root.source && r.path === root.path),
    watchRoot: async (root) => core.live?.watch(root),
    unwatchRoot: async (root) => core.live?.unwatch(root),
    changesRead: async (withinMs) => core.live?.settled(withinMs),
    recheck: async (files) => core.live?.recheck(files),
    async pushToTeam(team, o) {
      const archive = withTeam(team);
      if (!archive) throw new Error('no team archive is configured: set sessionSearch.team.database in your user settings, or give --db.');
      const { pushSessions } = await import('./team/push.js');
      const { db, machine } = await archive;
      return pushSessions(db, core.sessions.values(), { machine, projects: o.projects, onProgress: o.onProgress, turns: (s) => core.turns.all(s) });
    },
    close: () =>
      (closing ??= (async () => {
        // the load first, then the team archives, then the core's parts in their order (watchers, snapshot, lock)
        await loading?.catch(() => undefined);
        await teams.close();
        await core.close();
      })()),
  };
}

/** The team archives a library was asked about, one per database and machine, opened on first use. */
class TeamArchives {
  private readonly opened = new Map<string, Promise<TeamArchive>>();

  constructor(private readonly options: LibraryOptions) {}

  open(ref: TeamRef | undefined): Promise<TeamArchive> | undefined {
    if (!ref) return undefined;
    const key = JSON.stringify([ref.url, ref.machine ?? null]);
    let archive = this.opened.get(key);
    if (!archive) {
      // (the PostgreSQL driver loads only then)
      archive = import('./team/archive.js').then((m) => new m.TeamArchive(ref.url, m.machineName(ref.machine, this.options.env ?? process.env)));
      this.opened.set(key, archive);
    }
    return archive;
  }

  async close(): Promise<void> {
    for (const archive of this.opened.values()) await (await archive.catch(() => undefined))?.close();
    this.opened.clear();
  }
}

const newestFirst = (a: { updated: string }, b: { updated: string }): number => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0);

function treeSessions(core: LibraryCore, limit?: number): TreeSession[] {
  return [...core.sessions.values()]
    .sort(newestFirst)
    .slice(0, limit ?? Infinity)
    .map((s) => ({
      id: s.id,
      source: s.source,
      project: s.project,
      branch: s.branch,
      filename: s.filename,
      topic: s.topic,
      date: s.created,
      updated: s.updated,
      file: s.file,
      size: s.size,
      turns: turnCount(s),
      nativeId: s.nativeId,
      firstPrompt: firstPrompt(s)?.slice(0, 300),
      sourceDeleted: s.sourceDeleted,
      parentId: s.parentId,
      unreadLines: s.unreadLines?.count,
      userTags: core.userTagsOf(s.id),
      topics: s.topics?.length ? s.topics : undefined,
    }));
}
