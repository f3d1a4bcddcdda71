/**
 * The archive's search view: matches grouped by workspace (a repository and its worktrees apart), each hit an exchange
 * (the message and its reply, several hits in one exchange once), with the full count and the workspaces searched.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createLibrary } from '../../src/core/library.js';
import { MemoryLogger } from '../../src/core/log.js';
import { tempDir } from '../helpers.js';

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
  const library = createLibrary({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {} });
  await library.load();
  const r = library.search('quokkacache', { groupBy: 'workspace' });
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
  assert.throws(() => library.search('q', { groupBy: 'workspace' }), /at least 2 characters/);
  await library.close();
});
