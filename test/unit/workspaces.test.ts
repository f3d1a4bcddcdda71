/**
 * The archive's search view: matches grouped by workspace (a repository and its worktrees apart), each hit an exchange
 * (the message and its reply, several hits in one exchange once), with the full count and the workspaces searched.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { tempDir } from '../helpers.js';
import { eventually } from '../eventually.js';
import type { WorkspaceSummary } from '../../src/core/contracts.js';
import type { WorkspaceAnswer } from '../../src/core/answer/workspaces.js';
import { archiveLocation } from '../../src/core/store/archive.js';

function session(root: string, id: string, cwd: string, exchanges: [string, string][]): void {
  const lines: string[] = [];
  exchanges.forEach(([ask, reply], i) => {
    const at = (s: number) => new Date(Date.UTC(2026, 4, 1, 10, i, s)).toISOString();
    lines.push(JSON.stringify({ type: 'user', uuid: `${id}-u${i}`, sessionId: id, cwd, timestamp: at(0), message: { role: 'user', content: ask } }));
    lines.push(
      JSON.stringify({
        type: 'assistant',
        uuid: `${id}-a${i}`,
        sessionId: id,
        cwd,
        timestamp: at(1),
        message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: reply }] },
      }),
    );
  });
  mkdirSync(join(root, 'p'), { recursive: true });
  writeFileSync(join(root, 'p', `${id}.jsonl`), `${lines.join('\n')}\n`);
}

test('groupBy workspace: exchanges by workspace with full counts, several hits in one exchange once, at least 2 characters', async () => {
  const root = tempDir();
  const a = '11111111-1111-4111-8111-111111111111';
  const b = '22222222-2222-4222-8222-222222222222';
  const c = '33333333-3333-4333-8333-333333333333';
  session(root, a, '/home/dev/shop', [
    ['why is the quokkacache stale', 'The quokkacache keeps entries for an hour; quokkacache TTL is the cause.'],
    ['unrelated question', 'unrelated answer'],
    ['clear the quokkacache on deploy', 'Done.'],
  ]);
  session(root, b, '/home/dev/shop', [['quokkacache metrics', 'Added hit and miss counters.']]);
  session(root, c, '/home/dev/blog', [['quokkacache for the blog too?', 'No, the blog is static.']]);
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {} });
  await library.load();
  const r = await library.searchGrouped('quokkacache', { groupBy: 'workspace' });
  assert.equal(r.workspacesSearched, 2);
  assert.deepEqual(
    r.workspaces?.map((w) => [w.name, w.count, w.hits.length]),
    [
      ['shop', 4, 3],
      ['blog', 1, 1],
    ],
  );
  assert.equal(r.turnsMatched, 5);
  const first = r.workspaces![0].hits.find((h) => h.user === 'why is the quokkacache stale')!;
  assert.match(first.reply, /TTL is the cause/);
  assert.ok(first.userHighlights.length === 1 && first.replyHighlights.length === 2, 'the query words are marked in both');
  assert.equal(r.count, 3, 'the sessions answer stays as it was');
  assert.equal(library.search('quokkacache').workspaces, undefined, "the default answer keeps CodeArchitect's shape");
  assert.throws(() => library.searchGrouped('q', { groupBy: 'workspace' }), /at least 2 characters/);
  assert.throws(() => library.search('quokkacache', { groupBy: 'workspace' }), /searchGrouped/, 'the synchronous search never reads every workspace');
  await library.close();
});

test('the streamed view: each workspace answers on its own, best first; a damaged one fails alone and answers again when searched again', async () => {
  const root = tempDir();
  const data = tempDir();
  const a = '44444444-4444-4444-8444-444444444444';
  const b = '55555555-5555-4555-8555-555555555555';
  session(root, a, '/home/dev/shop', [
    ['the wombatqueue stalls', 'The wombatqueue consumer stalls on a poison message; wombatqueue retries forever.'],
    ['fix the wombatqueue retries', 'Capped at 5.'],
  ]);
  session(root, b, '/home/dev/blog', [['a wombatqueue for comments?', 'Not needed.']]);
  const logger = new MemoryLogger();
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger, env: {}, dataDir: data });
  await library.load();
  const stream = async (): Promise<{ answers: WorkspaceAnswer[]; summary: WorkspaceSummary }> => {
    const answers: WorkspaceAnswer[] = [];
    const summary = await library.searchWorkspaces('wombatqueue', {}, (x) => answers.push(x));
    return { answers, summary };
  };
  const first = await stream();
  assert.deepEqual(
    first.answers.map((x) => ('group' in x ? [x.group.name, x.group.count] : ['failed', x.failed.name])),
    [
      ['shop', 3],
      ['blog', 1],
    ],
    'one answer per workspace, the best first, with its full count',
  );
  assert.deepEqual(first.summary, { workspacesSearched: 2, workspacesMatched: 2, workspacesFailed: 0, turnsMatched: 4 });
  // given a time to answer in (an MCP client's wait), the grouped answer stops reading there and says so; in time, whole
  const grouped = await library.searchGrouped('wombatqueue', { maxMs: 60_000 });
  assert.deepEqual(
    grouped.workspaces?.map((w) => [w.name, w.count]),
    [
      ['shop', 3],
      ['blog', 1],
    ],
  );
  assert.equal(grouped.note, undefined);
  const stopped = await library.searchGrouped('wombatqueue', { maxMs: 0 });
  assert.deepEqual(stopped.results, grouped.results, 'the sessions found are all there');
  assert.deepEqual(stopped.workspaces, []);
  assert.match(stopped.note ?? '', /^The workspace view stopped after 0 s, before every workspace was read: .*project, date or source filter/);

  // the stored turns of the shop session go bad on disk (the turn cache holds nothing: the scan does not fill it)
  const where = archiveLocation([...library.sessions.values()].find((s) => s.nativeId === a)!)!;
  const bytes = readFileSync(where.entry);
  bytes.fill(0x7e, where.at[0] + 12, where.at[0] + where.at[1] - 2);
  writeFileSync(where.entry, bytes);
  const failed = await stream();
  const shop = failed.answers.find((x) => 'failed' in x);
  assert.ok(shop && 'failed' in shop && shop.failed.name === 'shop', JSON.stringify(failed.answers));
  assert.match(shop.failed.reason, /1 of its sessions could not be read .*search again to retry/);
  assert.deepEqual(failed.summary, { workspacesSearched: 2, workspacesMatched: 1, workspacesFailed: 1, turnsMatched: 1 }, 'the failed workspace is counted');

  // meanwhile its transcript is read again: searching again answers it
  await eventually(async () => (await stream()).summary.workspacesFailed === 0, 'the shop workspace answers again');
  const again = await stream();
  assert.deepEqual(again.summary, first.summary);

  // one turn's bytes go bad, the line's layout intact, so that the turn no longer holds the word: the damage is found
  // all the same (not a match quietly missing), and the session read again
  const shopSession = [...library.sessions.values()].find((s) => s.nativeId === a)!;
  const turnAt = archiveLocation(shopSession)!;
  const line = readFileSync(turnAt.entry);
  const word = line.subarray(turnAt.at[0], turnAt.at[0] + turnAt.at[1]).lastIndexOf('wombatqueue');
  line.fill(0x7e, turnAt.at[0] + word, turnAt.at[0] + word + 4);
  writeFileSync(turnAt.entry, line);
  const damagedTurn = await stream();
  assert.deepEqual(damagedTurn.summary, failed.summary, 'the workspace fails, as for a line damaged whole');
  await eventually(async () => (await stream()).summary.workspacesFailed === 0, 'the shop workspace answers again');
  assert.deepEqual((await stream()).summary, first.summary);
  assert.throws(() => library.searchWorkspaces('w', {}, () => undefined), /at least 2 characters/);

  // a newer search stops an older one: an aborted stream answers nothing more
  const controller = new AbortController();
  controller.abort();
  const none: WorkspaceAnswer[] = [];
  await library.searchWorkspaces('wombatqueue', {}, (x) => none.push(x), controller.signal);
  assert.equal(none.length, 0);
  await library.close();
});
