/**
 * The user's own model in the library, against a local endpoint with a deterministic fake embedding (no ranking
 * quality is claimed): sessions are embedded after the load, a paraphrase sharing no word with a session finds it
 * through the model's list, a restart reads the vectors back instead of embedding again, a grown session embeds only
 * its new units, another model embeds everything again, and a dead endpoint leaves answers by words that say why.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { Persistence } from '../../src/core/store/persistence.js';
import { indexingLine } from '../../src/core/indexing-line.js';
import type { EmbedConfig } from '../../src/core/embed/config.js';
import { startFakeEndpoint, type FakeEndpoint } from '../embed-server.js';
import { eventually } from '../eventually.js';
import { tempDir, writeCodeArchitect } from '../helpers.js';

let server: FakeEndpoint;
let root: string;
let dataDir: string;
const TOPICS = ['parser', 'renderer', 'linter', 'bundler', 'router', 'scheduler', 'compiler', 'profiler', 'formatter', 'debugger'];
const TIMER = 'Show how long is left';

before(async () => {
  server = await startFakeEndpoint({ 'fake-embed': 0, 'other-embed': 5 });
  root = tempDir();
  dataDir = tempDir();
  TOPICS.forEach((topic, i) =>
    writeCodeArchitect(root, `2026-03-${String(i + 1).padStart(2, '0')}`, `Work on the ${topic}`, [
      { role: 'user', content: `Please refactor the ${topic} module so that it reads its options once.` },
      { role: 'assistant', content: `The ${topic} now reads its options at start and keeps them.` },
    ]),
  );
  writeCodeArchitect(root, '2026-03-20', TIMER, [
    { role: 'user', content: 'Before the request fires, show the seconds remaining on the timer.' },
    { role: 'assistant', content: 'The banner now shows the seconds remaining, updated every second.' },
  ]);
});
after(() => server.close());

const config = (model = 'fake-embed'): EmbedConfig => ({ endpoint: server.url, model });

function open(embed?: EmbedConfig): LibraryCore {
  return openCore({ roots: [{ source: 'codearchitect', path: root }], logger: new MemoryLogger(), dataDir, embed, embedRetryMs: [50] });
}

async function loaded(library: LibraryCore): Promise<LibraryCore> {
  await library.load();
  await eventually(() => library.meaning?.state.status === 'ready', 'every session embedded', { debug: () => JSON.stringify(library.meaning?.state) });
  return library;
}

const sentTexts = (): string[] => server.requests.flatMap((r) => r.input);

test('sessions are embedded after the load, and a paraphrase sharing no word finds the session through the model', async () => {
  server.requests.length = 0;
  const library = await loaded(open(config()));
  try {
    assert.equal(library.meaning?.state.sessionsDone, TOPICS.length + 1);
    await eventually(() => existsSync(Persistence.embeddingsPath(dataDir)), 'the vectors kept in the data folder');
    // prompts and replies are embedded, titles too; the query words appear in none of them
    assert.ok(sentTexts().some((t) => t.includes('seconds remaining on the timer')));
    const query = 'countdown waiting';
    assert.ok(!sentTexts().some((t) => /countdown|waiting/i.test(t)));
    await library.prepare(query);
    const answer = library.search(query, {});
    assert.equal(answer.results[0]?.topic, TIMER, JSON.stringify(answer.results.map((r) => r.topic)));
    assert.equal(answer.results[0]?.foundBy, 'meaning');
    assert.equal(answer.embeddings, undefined, 'nothing to report once every session is embedded');
    assert.equal(library.search(query, { mode: 'semantic' }).results[0]?.topic, TIMER);
    // words still rank as words: the model is one more list, not the only one
    await library.prepare('linter options');
    assert.equal(library.search('linter options', {}).results[0]?.topic, 'Work on the linter');
  } finally {
    await library.close();
  }
  // without the model, nothing holds the words
  const plain = open();
  try {
    await plain.load();
    assert.ok(!plain.search('countdown waiting', {}).results.some((r) => r.topic === TIMER));
  } finally {
    await plain.close();
  }
});

test('a restart reads the vectors back: only the query is sent to the model', async () => {
  server.requests.length = 0;
  const library = await loaded(open(config()));
  try {
    await library.prepare('countdown waiting');
    assert.deepEqual(sentTexts(), ['countdown waiting']);
    assert.equal(library.search('countdown waiting', {}).results[0]?.topic, TIMER);
  } finally {
    await library.close();
  }
});

test('a session that grew embeds only its new units; another model embeds every session again', async () => {
  const library = await loaded(open(config()));
  try {
    server.requests.length = 0;
    const dir = writeCodeArchitect(root, '2026-03-20', TIMER, [
      { role: 'user', content: 'Before the request fires, show the seconds remaining on the timer.' },
      { role: 'assistant', content: 'The banner now shows the seconds remaining, updated every second.' },
      { role: 'user', content: 'Now make the banner red during the last five seconds.' },
    ]);
    await library.reloadFile(join(dir, 'full.md'));
    await eventually(() => sentTexts().length > 0 && library.meaning?.state.status === 'ready', 'the grown session embedded');
    assert.deepEqual(sentTexts(), ['Now make the banner red during the last five seconds.']);
  } finally {
    await library.close();
  }
  server.requests.length = 0;
  const other = await loaded(open(config('other-embed')));
  try {
    assert.equal(new Set(server.requests.map((r) => r.model)).size, 1);
    assert.ok(sentTexts().length >= 2 * (TOPICS.length + 1), `only ${sentTexts().length} texts embedded again`);
  } finally {
    await other.close();
  }
});

test('a dead endpoint: answers by words say why meaning is missing, and embedding resumes once it answers', async () => {
  const fresh = tempDir();
  server.failNext(1_000, 500);
  const library = openCore({
    roots: [{ source: 'codearchitect', path: root }],
    logger: new MemoryLogger(),
    dataDir: fresh,
    embed: config(),
    embedRetryMs: [50],
  });
  try {
    await library.load();
    await eventually(() => library.meaning?.state.status === 'failed', 'embedding reported as failed');
    const answer = library.search('linter options', {});
    assert.equal(answer.results[0]?.topic, 'Work on the linter');
    assert.equal(answer.embeddings?.status, 'failed');
    assert.match(answer.embeddings?.error ?? '', /500/);
    // the CLI's and the MCP text answers say it too
    assert.match(indexingLine(answer), /^your embedding model cannot be used \(.*500.*\): ranked without it\n$/);
    server.failNext(0);
    await eventually(() => library.meaning?.state.status === 'ready', 'embedding resumed', { timeoutMs: 15_000 });
    assert.equal(library.search('linter options', {}).embeddings, undefined);
  } finally {
    server.failNext(0);
    await library.close();
  }
});

test('a model that cannot be used is reported, and everything else works as without one', async () => {
  const library = openCore({
    roots: [{ source: 'codearchitect', path: root }],
    logger: new MemoryLogger(),
    dataDir: tempDir(),
    embed: { folder: join(tempDir(), 'no-model-here') },
  });
  try {
    await library.load();
    await eventually(() => library.meaning?.state.status === 'failed', 'the missing folder reported');
    const answer = library.search('linter options', {});
    assert.equal(answer.results[0]?.topic, 'Work on the linter');
    assert.match(answer.embeddings?.error ?? '', /does not exist/);
  } finally {
    await library.close();
  }
});

test('closing while the endpoint holds a batch does not wait for it (an engine asked to stop stops)', async () => {
  server.stallMs = 30_000;
  const library = openCore({ roots: [{ source: 'codearchitect', path: root }], logger: new MemoryLogger(), dataDir: tempDir(), embed: config() });
  try {
    await library.load();
    const asked = server.requests.length;
    await eventually(() => server.requests.length > asked, 'a batch sent');
    let closed = false;
    const closing = library.close().then(() => (closed = true));
    await eventually(() => closed, 'closed before the endpoint answered', { timeoutMs: 15_000 });
    await closing;
  } finally {
    server.stallMs = 0;
  }
});
