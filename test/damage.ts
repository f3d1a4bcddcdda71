/**
 * Damage to the data folder, as properties shared by the test suite (fixed seeds, `test/damage.test.ts`) and the
 * exploration script (random seeds, many runs, `npm run explore:damage`): whatever bytes of a snapshot or an archive
 * entry are flipped, cut or zeroed, `search` (asked first, and again after), `read`, the reader's window, `export`,
 * `get` and `list` answer exactly as a cold build from the same transcripts does.
 */
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type fcType from 'fast-check';
import { openCore, type LibraryOptions, type LibraryCore } from '../src/core/library/open.js';
import { MemoryLogger } from '../src/core/log.js';
import { Persistence } from '../src/core/store/persistence.js';
import { CORPUS, tempDir } from './helpers.js';

type FastCheck = typeof fcType;
export type Damage = (bytes: Buffer) => Buffer;

const QUERIES = ['test', 'error handling', 'readme', '"npm install"', 'todo -write', 'typescript config'];

export async function openLibrary(
  root: string,
  data: string | undefined,
  extra: Partial<LibraryOptions> = {},
): Promise<{ library: LibraryCore; logger: MemoryLogger }> {
  const logger = new MemoryLogger();
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger, dataDir: data, env: {}, snapshotDelayMs: 60_000, ...extra });
  await library.load();
  return { library, logger };
}

/** A copy of the real Claude Code transcripts (the damage tests write beside them). */
export function corpusCopy(): string {
  const root = join(tempDir(), 'claude');
  cpSync(join(CORPUS, 'claude-code'), root, { recursive: true });
  return root;
}

/** Flipped bytes, a cut end, or a run of zeroes, anywhere in a buffer of `length` bytes. */
export function damages(fc: FastCheck, length: number): fcType.Arbitrary<Damage> {
  return fc.oneof(
    fc.array(fc.tuple(fc.nat({ max: length - 1 }), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 8 }).map((flips) => (b: Buffer) => {
      const copy = Buffer.from(b);
      for (const [at, x] of flips) if (at < copy.length) copy[at] ^= x;
      return copy;
    }),
    fc.nat({ max: length - 1 }).map((at) => (b: Buffer) => b.subarray(0, Math.min(at, b.length - 1))),
    fc.tuple(fc.nat({ max: length - 1 }), fc.integer({ min: 1, max: 4096 })).map(
      ([at, n]) =>
        (b: Buffer) =>
          Buffer.concat([b.subarray(0, at), Buffer.alloc(n), b.subarray(Math.min(b.length, at + n))]),
    ),
  );
}

/** What a user sees: results (ids, scores, snippets), the newest sessions, and every session read whole. */
/** (Ranked by words only: the semantic leg's model depends on when it was learned, not on damage.) */
export async function assertSameAnswers(library: LibraryCore, reference: LibraryCore, what: string): Promise<void> {
  // (as the library's facade searches, for the engine and every front end: again once a repair its snippets started is done)
  const answers = async (lib: LibraryCore, q: string) => {
    const search = () => lib.search(q, { limit: 10, mode: 'lexical' });
    return (await lib.afterRepairs(search(), search)).results.map((r) => ({
      id: r.id,
      relevance: r.relevanceScore,
      snippets: r.matchedSnippets,
      turns: r.snippetTurnIds,
    }));
  };
  // ...and the blocks an agent's search_context gives (each block's text is read from the turns)
  const blocks = async (lib: LibraryCore, q: string) => {
    const search = () => lib.searchContext(q, { limit: 10, threshold: 0, mode: 'lexical' });
    return (await lib.afterRepairs(search(), search)).results;
  };
  // searched first, before anything reads the sessions: a search's snippets and blocks read the turns of the sessions
  // it shows, and must not show one without them
  const asks = [
    ['search', answers],
    ['context search', blocks],
  ] as const;
  for (const [i, q] of QUERIES.entries())
    for (const [name, ask] of i % 2 ? [...asks].reverse() : asks)
      assert.deepEqual(await ask(library, q), await ask(reference, q), `${what}: ${name} ${q}, before any read`);
  for (const [i, id] of [...reference.sessions.keys()].entries()) {
    // (a page and the reader's window read first, each first for every other session: each reads the turns itself, as
    // an agent's read_session and the reader do, and must not answer from a damaged copy)
    const page = async () => assert.deepEqual(await library.read(id, 0), await reference.read(id, 0), `${what}: read ${id}`);
    const window = async () =>
      assert.deepEqual(await library.turnWindow(id, 0, 1000), await reference.turnWindow(id, 0, 1000), `${what}: the reader's window of ${id}`);
    for (const step of i % 2 ? [page, window] : [window, page]) await step();
    // (exported before it is got: an export reads the turns itself, and a damaged copy must not reach its text either)
    assert.deepEqual(await library.export(id, 'md'), await reference.export(id, 'md'), `${what}: export ${id}`);
    assert.deepEqual(await library.get(id), await reference.get(id), `${what}: get ${id}`);
  }
  for (const q of QUERIES) for (const [name, ask] of asks) assert.deepEqual(await ask(library, q), await ask(reference, q), `${what}: ${name} ${q}`);
  assert.deepEqual(library.list({ limit: 50 }), reference.list({ limit: 50 }), `${what}: list`);
}

export interface SnapshotFixture {
  root: string;
  data: string;
  good: Buffer;
  reference: LibraryCore;
  archive: boolean;
}

/** A data folder with a good snapshot (with an archive, or holding the turns itself), and a cold build to compare with. */
export async function snapshotFixture(archive: boolean): Promise<SnapshotFixture> {
  const root = corpusCopy();
  const data = tempDir();
  await (await openLibrary(root, data, { archive })).library.close();
  const good = readFileSync(Persistence.snapshotPath(data));
  const reference = (await openLibrary(root, undefined)).library;
  return { root, data, good, reference, archive };
}

/** Damages the snapshot, starts a library on it, and compares its answers with the cold build. */
export async function checkSnapshotDamage(fx: SnapshotFixture, damage: Damage): Promise<void> {
  writeFileSync(Persistence.snapshotPath(fx.data), damage(fx.good));
  const { library, logger } = await openLibrary(fx.root, fx.data, { archive: fx.archive });
  try {
    await assertSameAnswers(library, fx.reference, `snapshot damaged (${fx.archive ? 'with' : 'without'} an archive)\n${logger.lines.join('\n')}`);
  } finally {
    await library.close();
  }
}

export interface ArchiveFixture {
  root: string;
  data: string;
  entries: { path: string; good: Buffer }[];
  reference: LibraryCore;
}

export async function archiveFixture(): Promise<ArchiveFixture> {
  const root = corpusCopy();
  const data = tempDir();
  const { library } = await openLibrary(root, data);
  await library.close();
  const dir = library.archive!.dir;
  const entries = readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()
    .map((n) => ({ path: join(dir, n), good: readFileSync(join(dir, n)) }));
  const reference = (await openLibrary(root, undefined)).library;
  return { root, data, entries, reference };
}

/**
 * Damages one archive entry, either between runs (the next start notices) or under a running library (its next read
 * of those turns notices), and compares the answers with the cold build: the sessions come back from their transcripts.
 */
export async function checkArchiveDamage(fx: ArchiveFixture, which: number, damage: Damage, whileRunning: boolean): Promise<void> {
  const entry = fx.entries[which % fx.entries.length];
  const restore = () => {
    for (const e of fx.entries) writeFileSync(e.path, e.good);
  };
  restore();
  // A snapshot that matches the good entries, then the damage.
  await (await openLibrary(fx.root, fx.data)).library.close();
  if (!whileRunning) writeFileSync(entry.path, damage(entry.good));
  const { library, logger } = await openLibrary(fx.root, fx.data);
  if (whileRunning) writeFileSync(entry.path, damage(entry.good));
  try {
    await assertSameAnswers(
      library,
      fx.reference,
      `archive entry ${entry.path} damaged ${whileRunning ? 'while running' : 'between runs'}\n${logger.lines.join('\n')}`,
    );
  } finally {
    await library.close();
    restore();
  }
}

export interface DamageCheck {
  name: string;
  /** Runs the property (fast-check's `assert`): a failure throws with the seed and path that reproduce it. */
  run: (params: { seed?: number; numRuns: number; path?: string }) => Promise<void>;
}

/** The three properties, each run by fast-check with the seed and number of runs given. */
export async function damageChecks(fc: FastCheck): Promise<DamageCheck[]> {
  const plain = await snapshotFixture(false);
  const archived = await snapshotFixture(true);
  const archive = await archiveFixture();
  const largest = Math.max(...archive.entries.map((e) => e.good.length));
  return [
    {
      name: 'snapshot without an archive',
      run: (params) =>
        fc.assert(
          fc.asyncProperty(damages(fc, plain.good.length), (d) => checkSnapshotDamage(plain, d)),
          { ...params, includeErrorInReport: true },
        ),
    },
    {
      name: 'snapshot with an archive',
      run: (params) =>
        fc.assert(
          fc.asyncProperty(damages(fc, archived.good.length), (d) => checkSnapshotDamage(archived, d)),
          { ...params, includeErrorInReport: true },
        ),
    },
    {
      name: 'archive entry',
      run: (params) =>
        fc.assert(
          fc.asyncProperty(fc.nat(), damages(fc, largest), fc.boolean(), (which, d, running) => checkArchiveDamage(archive, which, d, running)),
          { ...params, includeErrorInReport: true },
        ),
    },
  ];
}
