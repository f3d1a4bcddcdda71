/**
 * Sub-agents belong to their session (a `parentId` on the sub-agent, `children` on the parent, in get, search and the
 * reader), and a session whose transcript the tool deleted says so wherever it is read; its tool cannot reopen it.
 */
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { resumeArgs } from '../../src/core/resume.js';
import { renderGet } from '../../src/cli/render.js';
import { CORPUS, tempDir } from '../helpers.js';

const PARENT = 'claude-code:5c0375b4-57a5-4f26-b12d-d022ee4e51b7';

async function open(root: string, data: string): Promise<LibraryCore> {
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {} });
  await library.load();
  return library;
}

function sampleProject(): string {
  const root = join(tempDir(), 'projects');
  cpSync(join(CORPUS, 'claude-code', 'ccviewer', 'sample-project'), join(root, 'sample-project'), { recursive: true });
  return root;
}

test('a sub-agent transcript names the session that started it, and that session lists it, in get, search and the reader', async () => {
  const library = await open(sampleProject(), tempDir());
  const agents = [...library.sessions.values()].filter((s) => s.filename.startsWith('agent-'));
  assert.ok(agents.length >= 2);
  const parent = await library.get(PARENT, { format: 'json' });
  assert.deepEqual(parent.session.children?.slice().sort(), agents.map((a) => a.id).sort());
  assert.equal(parent.session.parentId, undefined);
  assert.match(renderGet(await library.get(PARENT)), /Sub-agents it started: .*agent-test-hash/);
  for (const agent of agents) {
    const got = await library.get(agent.id, { format: 'json' });
    assert.equal(got.session.parentId, PARENT);
    assert.match(renderGet(await library.get(agent.id)), new RegExp(`A sub-agent of ${PARENT}`));
    assert.match((await library.turnWindow(agent.id, 0, 2))?.notes?.join(' ') ?? '', /A sub-agent of “/);
  }
  // a word of a sub-agent's own turns finds it, and the result shows whose sub-agent it is
  const hit = library
    .search('"Run the test suite"', { limit: 10 })
    .results.find((r) => r.id === agents.find((a) => library.turns.all(a)[0].text === 'Run the test suite')?.id);
  assert.ok(hit, 'found by its own words');
  assert.equal(hit.parentId, PARENT);
  assert.equal(library.list({ limit: 50 }).sessions.find((s) => s.id === hit.id)?.parentId, PARENT);
  await library.close();
});

test('a session whose transcript was deleted says so in get and the reader, and offers no command to reopen it', async () => {
  const root = sampleProject();
  const data = tempDir();
  const first = await open(root, data);
  assert.ok((await first.get(PARENT, { format: 'json' })).session.resumeCommand, 'reopenable while the tool has it');
  await first.close();
  rmSync(join(root, 'sample-project', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'));
  const library = await open(root, data);
  const got = await library.get(PARENT, { format: 'json' });
  assert.equal(got.session.sourceDeleted, true);
  assert.equal(got.session.resumeCommand, undefined, 'claude --resume would find nothing');
  assert.equal(resumeArgs(library.sessions.get(PARENT)!), undefined);
  assert.match(renderGet(await library.get(PARENT)), /The tool deleted this transcript .*from the archive/);
  assert.match((await library.turnWindow(PARENT, 0, 2))?.notes?.join(' ') ?? '', /deleted this transcript/);
  assert.equal(library.search('"test suite"', { limit: 20 }).results.find((r) => r.id === PARENT)?.resumeCommand, undefined);
  await library.close();
});
