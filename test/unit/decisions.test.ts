/** Decisions: the rules on statements people write, and `search_context {types: ["decision"]}` finding where one was made. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decisionsIn, isDecision } from '../../src/core/ingest/decisions.js';
import type { LibraryCore } from '../../src/core/library/open.js';
import type { StoredHeader } from '../../src/core/store/compact-header.js';
import { loadLibrary, snapshotSessions, tempDir, writeCodeArchitect } from '../helpers.js';

describe('what counts as a decision', () => {
  const settled = [
    "Let's go with PostgreSQL for the ledger.",
    "OK, we'll use Redis for the session cache.",
    'We decided to drop the GraphQL layer and keep REST.',
    'Decision: use pnpm workspaces for the monorepo.',
    'Use zod instead of hand-written validators.',
    "Don't use moment, use date-fns.",
    'From now on we always run the linter before committing.',
    "You're right, we should be using fetch instead of axios here.",
    'Instead of polling, we now subscribe to the change feed.',
  ];
  const unsettled = [
    'Should we use PostgreSQL or MongoDB?',
    'We could use Redis if the cache grows.',
    'If we decide to migrate, the schema needs a version column.',
    'Maybe we should switch to pnpm at some point.',
    'Option A: use websockets. Option B: long polling.',
    'I can see the module uses callbacks instead of promises.',
    'The helper already returns null instead of throwing.',
    "Let me know whether you'd rather keep REST.",
  ];
  for (const s of settled) test(`settled: ${s}`, () => assert.equal(isDecision(s), true));
  for (const s of unsettled) test(`not settled: ${s}`, () => assert.equal(isDecision(s), false));

  test('a person telling the agent which library to use decides; telling it which of its tools to use does not', () => {
    assert.equal(isDecision('use rich for the coloured prompt', 'user'), true);
    assert.equal(isDecision('use rich for the coloured prompt', 'assistant'), false);
    assert.equal(isDecision('use the file tools to look at the structure', 'user'), false);
  });

  test('only prompts and replies, in prose: code, quotes and tool output are not where people decide', () => {
    const reply = (text: string) => ({ kind: 'conversation' as const, role: 'assistant' as const, text });
    assert.deepEqual(decisionsIn(reply("Looks good.\n\nLet's use SQLite for the tests.\n\n```ts\n// let's use a map instead of an object\n```")), [
      "Let's use SQLite for the tests.",
    ]);
    assert.deepEqual(decisionsIn(reply("> let's use MongoDB\nNo, not that.")), []);
    assert.deepEqual(decisionsIn({ kind: 'tool', role: 'tool', text: "let's use MongoDB instead of files" }), []);
  });
});

describe('search_context with types: ["decision"]', () => {
  let library: LibraryCore;
  before(async () => {
    const root = tempDir();
    writeCodeArchitect(root, '2026-01-15', 'backend-architecture', [
      { role: 'user', content: 'We need a store for the orders: relational data, reports, transactions.' },
      { role: 'assistant', content: 'Both PostgreSQL and MongoDB could work; the reports join a lot of tables.' },
      { role: 'user', content: "Let's go with PostgreSQL instead of MongoDB, the data is relational." },
      { role: 'assistant', content: 'Agreed. I will write the schema migrations next.' },
    ]);
    writeCodeArchitect(root, '2026-02-01', 'frontend-state', [
      { role: 'user', content: 'The cart state is getting messy.' },
      { role: 'assistant', content: "We'll use Zustand for the cart store instead of prop drilling." },
    ]);
    ({ library } = await loadLibrary([{ source: 'codearchitect', path: root }]));
  });
  after(() => library.close());

  test('the question finds the turn where it was decided, with what was decided as the snippet', () => {
    const { results } = library.searchContext('When did we decide to use PostgreSQL instead of MongoDB?', { types: ['decision'], limit: 5, threshold: 0 });
    assert.ok(results.length >= 1);
    assert.equal(results[0].type, 'decision');
    assert.equal(results[0].snippet, "Let's go with PostgreSQL instead of MongoDB, the data is relational.");
    assert.equal(results[0].sessionName, 'backend-architecture');
    assert.ok(results[0].tags.includes('decision'));
    assert.ok(results.every((b) => b.type === 'decision'));
  });

  test('a subject word finds the decisions of sessions about it, though the statement does not say it', () => {
    const { results } = library.searchContext('database', { types: ['decision'], limit: 5, threshold: 0 });
    assert.deepEqual(
      results.map((b) => b.snippet),
      ["Let's go with PostgreSQL instead of MongoDB, the data is relational."],
    );
  });

  test('without types, a decision stays a conversation block', () => {
    const { results } = library.searchContext('Zustand cart store', { limit: 5, threshold: 0 });
    assert.ok(results.length >= 1);
    assert.ok(results.every((b) => b.type !== 'decision'));
  });
});

describe("the panel's Decisions", () => {
  test('per project, newest first; an earlier decision settled again later says which one replaced it', async () => {
    const root = tempDir();
    const session = (day: string, topic: string, content: string) =>
      writeCodeArchitect(root, day, topic, [
        { role: 'user', content },
        { role: 'assistant', content: 'Done.' },
      ]);
    session('2026-01-10', 'orders-store', "Let's use MongoDB for the orders collection.");
    session('2026-03-02', 'orders-migration', "We'll use PostgreSQL instead of MongoDB for the orders.");
    session('2026-02-01', 'styling', "Let's go with Tailwind for the admin pages.");
    const { library } = await loadLibrary([{ source: 'codearchitect', path: root }]);
    try {
      const { projects } = library.decisions({});
      const decisions = projects.flatMap((p) => p.decisions);
      assert.deepEqual(
        decisions.map((d) => d.text),
        [
          "We'll use PostgreSQL instead of MongoDB for the orders.",
          "Let's go with Tailwind for the admin pages.",
          "Let's use MongoDB for the orders collection.",
        ],
      );
      assert.equal(decisions[2].replacedBy, decisions[0].turn, 'MongoDB, settled again later');
      assert.equal(decisions[1].replacedBy, undefined);
      assert.match(decisions[0].turn, /^codearchitect:2026-03-02\/orders-migration#0$/);
    } finally {
      await library.close();
    }
  });
});

describe('a warm start', () => {
  test('lists the decisions and learns the preferences a cold load did, from sections the snapshot keeps apart and reads only when asked', async () => {
    const { openCore } = await import('../../src/core/library/open.js');
    const { MemoryLogger } = await import('../../src/core/log.js');
    const { Persistence } = await import('../../src/core/store/persistence.js');
    const { readFileSync } = await import('node:fs');
    const { corpusRoots, snapshotHeader } = await import('../helpers.js');
    const data = tempDir();
    const open = async () => {
      const library = openCore({ roots: corpusRoots, logger: new MemoryLogger(), dataDir: data, env: {} });
      await library.load();
      return library;
    };
    const answers = (library: LibraryCore) => {
      const { projects } = library.decisions();
      const { preferences, evidence } = library.preferences();
      return { projects, preferences, evidence };
    };
    const cold = await open();
    const parsed = answers(cold);
    // (over the real transcripts: some of them decide, and some show how their people work)
    assert.ok(parsed.projects.some((p) => p.decisions.length));
    assert.ok(Object.keys(parsed.evidence ?? {}).length);
    const decided = [...cold.sessions.values()].filter((s) => s.decisions?.length).length;
    await cold.close();
    const header = () =>
      snapshotHeader(readFileSync(Persistence.snapshotPath(data))).header as StoredHeader & {
        created: string;
        sections: Record<string, unknown>;
      };
    // the sessions' metadata no longer carries them: each list is a section of its own
    const written = header();
    const sessions = snapshotSessions(readFileSync(Persistence.snapshotPath(data))).sessions;
    assert.ok(sessions.every((s) => s.decisions === undefined && s.preferences === undefined));
    assert.ok(written.sections.decisions && written.sections.preferences);
    const warm = await open();
    try {
      // restored sessions hold none of them until asked; asked, every session gives what the cold load found
      assert.equal([...warm.sessions.values()].filter((s) => s.decisions !== undefined).length, 0);
      assert.deepEqual(answers(warm), parsed);
      await warm.saveSnapshot();
    } finally {
      await warm.close();
    }
    assert.ok(decided > 10, `${decided} sessions with decisions`);
    // a snapshot written by a library whose sessions were restored carries the lists over (read from the one before)
    const rewritten = header();
    assert.notEqual(rewritten.created, written.created, 'the warm library wrote a snapshot of its own');
    assert.ok(rewritten.sections.decisions && rewritten.sections.preferences);
    const again = await open();
    try {
      assert.deepEqual(answers(again), parsed);
    } finally {
      await again.close();
    }
  });
});
