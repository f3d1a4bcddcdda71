/**
 * The team archive against a real PostgreSQL of the tests' own (test/pg-cluster.ts): two machines push, a role with a
 * share reads only the shared project, a role with none reads nothing, pushing twice changes nothing, a push killed
 * with SIGKILL leaves whole sessions and resumes, the server stopped mid-search falls back to local results, and a
 * schema newer than the client is refused. Through the built CLI and MCP server, as people and agents use them.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT, tempDir, writeFile } from '../helpers.js';
import { eventually } from '../eventually.js';
import { ADMIN, startCluster, type Cluster } from '../pg-cluster.js';

type Turn = [string, string];

/** A Claude Code transcript of `turns` (prompt, reply) pairs in `cwd`, under `root`. */
function claudeSession(root: string, cwd: string, id: string, turns: Turn[], day = '2026-10-01'): string {
  const lines = turns.flatMap(([prompt, reply], i) => [
    {
      sessionId: id,
      cwd,
      type: 'user',
      uuid: `u${i}`,
      timestamp: `${day}T10:${String(i % 60).padStart(2, '0')}:00Z`,
      message: { role: 'user', content: prompt },
    },
    {
      sessionId: id,
      cwd,
      type: 'assistant',
      uuid: `a${i}`,
      timestamp: `${day}T10:${String(i % 60).padStart(2, '0')}:30Z`,
      message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: reply }] },
    },
  ]);
  return writeFile(join(root, cwd.replaceAll('/', '-'), `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

interface Machine {
  root: string;
  cli(...args: string[]): { code: number | null; stdout: string; stderr: string };
  args(...args: string[]): string[];
  env: NodeJS.ProcessEnv;
}

function machine(cluster: Cluster, role: string, name: string): Machine {
  const root = tempDir();
  const env = { ...process.env, HOME: tempDir(), SESSION_SEARCH_HOME: tempDir(), SESSION_SEARCH_TEAM_DB: cluster.url(role), SESSION_SEARCH_MACHINE: name };
  const args = (...rest: string[]): string[] => [join(ROOT, 'dist', 'cli.cjs'), ...rest, '--root', `claude-code=${root}`];
  return {
    root,
    env,
    args,
    cli(...rest) {
      const r = spawnSync(process.execPath, args(...rest), { encoding: 'utf8', env });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    },
  };
}

function json<T>(r: { code: number | null; stdout: string; stderr: string }): T {
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}

interface Push {
  written: number;
  appended: number;
  unchanged: number;
  turns: number;
  selected: number;
}
interface Found {
  results: { id: string; topic: string; owner?: string; machine?: string; matchedSnippets: string[] }[];
  teamNotice?: string;
}

describe('the team archive on PostgreSQL', () => {
  let cluster: Cluster;
  let alice: Machine, bob: Machine, carol: Machine, dave: Machine, outsider: Machine;

  before(async () => {
    cluster = await startCluster();
    const init = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'team', 'init', '--db', cluster.url(ADMIN)], { encoding: 'utf8' });
    assert.equal(init.status, 0, init.stderr);
    for (const role of ['alice', 'bob', 'carol', 'dave']) await cluster.createRole(role, 'IN ROLE session_search_member');
    await cluster.createRole('outsider');
    await cluster.sql('CREATE ROLE reviewers NOLOGIN; GRANT reviewers TO carol');
    alice = machine(cluster, 'alice', 'laptop-a');
    bob = machine(cluster, 'bob', 'laptop-b');
    carol = machine(cluster, 'carol', 'laptop-c');
    dave = machine(cluster, 'dave', 'laptop-d');
    outsider = machine(cluster, 'outsider', 'laptop-o');
    claudeSession(alice.root, '/work/webapp', uuid(1), [
      ['The websocket reconnect storm is back after deploy', 'Added exponential backoff with jitter to the reconnect loop.'],
      ['Did the storm stop?', 'Yes: reconnects now spread over 30 seconds.'],
    ]);
    claudeSession(alice.root, '/work/webapp', uuid(2), [['Verify the Stripe webhook signature', 'Checked the signing secret header before parsing the body.']]);
    claudeSession(alice.root, '/work/secret-lab', uuid(3), [['Prototype the zebrafish payroll ledger', 'Sketched the ledger tables for zebrafish.']]);
    claudeSession(bob.root, '/home/bob/api', uuid(4), [['GraphQL pagination cursor skips rows', 'The cursor was encoded before sorting; fixed the order.']]);
    claudeSession(carol.root, '/home/carol/site', uuid(5), [['My notes on websocket reconnect for the site', 'Use the same backoff idea as the team.']]);
  });

  after(() => cluster?.stop());

  test('init is applied once; nothing is pushed without a project chosen', () => {
    const again = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'team', 'init', '--db', cluster.url(ADMIN)], { encoding: 'utf8' });
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /up to date \(schema 1\)/);
    const none = alice.cli('team', 'push');
    assert.equal(none.code, 1);
    assert.match(none.stderr, /--project/);
  });

  test('two machines push their chosen projects; pushing twice changes nothing', async () => {
    const first = json<Push>(alice.cli('team', 'push', '--project', 'webapp', '--project', 'secret-lab', '--json'));
    assert.deepEqual([first.selected, first.written, first.unchanged], [3, 3, 0]);
    assert.equal(first.turns, 8);
    assert.equal(json<Push>(bob.cli('team', 'push', '--project', '/home/bob/api', '--json')).written, 1);
    const rows = await cluster.sql<{ owner: string; machine: string; n: string }>(
      'SELECT owner::text, machine, count(*) AS n FROM session_search.sessions GROUP BY 1, 2 ORDER BY 1',
    );
    assert.deepEqual(
      rows.map((r) => [r.owner, r.machine, Number(r.n)]),
      [
        ['alice', 'laptop-a', 3],
        ['bob', 'laptop-b', 1],
      ],
    );
    const pushedAt = await cluster.sql('SELECT id, pushed_at FROM session_search.sessions ORDER BY id');
    const again = json<Push>(alice.cli('team', 'push', '--project', 'webapp', '--project', 'secret-lab', '--json'));
    assert.deepEqual([again.written, again.appended, again.unchanged, again.turns], [0, 0, 3, 0]);
    assert.deepEqual(await cluster.sql('SELECT id, pushed_at FROM session_search.sessions ORDER BY id'), pushedAt);
  });

  test('turns appended to a transcript are sent as appends', async () => {
    const file = join(alice.root, '-work-webapp', `${uuid(1)}.jsonl`);
    const base = { sessionId: uuid(1), cwd: '/work/webapp' };
    appendFileSync(
      file,
      `${JSON.stringify({ ...base, type: 'user', uuid: 'u9', timestamp: '2026-10-01T11:00:00Z', message: { role: 'user', content: 'Write the postmortem' } })}\n`,
    );
    const pushed = json<Push>(alice.cli('team', 'push', '--project', 'webapp', '--json'));
    assert.deepEqual([pushed.appended, pushed.written, pushed.turns], [1, 0, 1]);
    const [row] = await cluster.sql<{ turn_count: number; n: string }>(
      `SELECT s.turn_count, (SELECT count(*) FROM session_search.turns t WHERE t.owner = s.owner AND t.machine = s.machine AND t.session_id = s.id) AS n
       FROM session_search.sessions s WHERE s.id = $1`,
      [`claude-code:${uuid(1)}`],
    );
    assert.equal(row.turn_count, 5);
    assert.equal(Number(row.n), 5);
  });

  test('a share lets a group read one project and nothing else; a role with none reads nothing', async () => {
    assert.equal(alice.cli('team', 'share', 'webapp', 'reviewers').code, 0);
    const found = json<Found>(carol.cli('search', 'websocket', 'reconnect', '--team', '--json'));
    const team = found.results.filter((r) => r.owner);
    assert.deepEqual(
      team.map((r) => [r.owner, r.machine, r.id]),
      [['alice', 'laptop-a', `team:alice:laptop-a:claude-code:${uuid(1)}`]],
    );
    assert.match(team[0].matchedSnippets.join(' '), /reconnect/);
    assert.ok(
      found.results.some((r) => !r.owner && r.id === `claude-code:${uuid(5)}`),
      'carol’s own session is there too',
    );
    assert.equal(json<Found>(carol.cli('search', 'zebrafish', '--team', '--json')).results.length, 0);
    const got = carol.cli('get', team[0].id, '--json');
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout, /exponential backoff/);
    const hidden = carol.cli('get', `team:alice:laptop-a:claude-code:${uuid(3)}`);
    const missing = carol.cli('get', 'team:alice:laptop-a:claude-code:nothing-here');
    assert.equal(hidden.code, 1);
    assert.equal(hidden.stderr.replace(uuid(3), 'X'), missing.stderr.replace('nothing-here', 'X'), 'a hidden session reads like a missing one');
    assert.match(carol.cli('team', 'status').stdout, /alice@laptop-a {2}webapp {2}2 sessions/);
    assert.doesNotMatch(carol.cli('team', 'status').stdout, /secret-lab|api/);
    // bob shares his own "webapp" (he has none) with dave: alice's stays hidden from dave
    assert.equal(bob.cli('team', 'share', 'webapp', 'dave').code, 0);
    assert.match(dave.cli('team', 'status').stdout, /nothing you may read yet/);
    assert.equal(json<Found>(dave.cli('search', 'websocket', '--team', '--json')).results.length, 0);
    const asDave = new pg.Client({ connectionString: cluster.url('dave') });
    const asCarol = new pg.Client({ connectionString: cluster.url('carol') });
    await Promise.all([asDave.connect(), asCarol.connect()]);
    try {
      assert.equal(Number((await asDave.query('SELECT count(*) AS n FROM session_search.turns')).rows[0].n), 0);
      // the index-using candidate function applies the same rule as row-level security
      const match = async (client: pg.Client, words: string): Promise<string[]> =>
        (
          await client.query<{ owner: string; project: string }>(
            `SELECT m.owner::text AS owner, s.project FROM session_search.match(to_tsquery('english', $1), 50, NULL, NULL, NULL, NULL, NULL) m
             LEFT JOIN session_search.sessions s USING (owner, machine, id)`,
            [words],
          )
        ).rows.map((r) => `${r.owner}/${r.project}`);
      assert.deepEqual(await match(asDave, 'websocket | zebrafish | graphql'), []);
      assert.deepEqual(await match(asCarol, 'zebrafish | graphql'), []);
      assert.deepEqual(await match(asCarol, 'websocket'), ['alice/webapp']);
      assert.equal((await asCarol.query(`UPDATE session_search.sessions SET title = 'mine now' WHERE owner = 'alice'`)).rowCount, 0);
      await assert.rejects(
        asCarol.query(`INSERT INTO session_search.shares (owner, project, grantee) VALUES ('alice', 'secret-lab', 'carol')`),
        /row-level security/,
      );
    } finally {
      await Promise.all([asDave.end(), asCarol.end()]);
    }
    const denied = outsider.cli('team', 'status');
    assert.equal(denied.code, 1);
    assert.match(denied.stderr, /session_search_member/);
  });

  test('the MCP server answers over both archives, and with local results and a notice while the database is down', async () => {
    const client = new Client({ name: 'team-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(ROOT, 'dist', 'mcp.js'), ...carol.args().slice(1)],
        env: carol.env as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    const search = async (): Promise<Found> =>
      ((await client.callTool({ name: 'search_session', arguments: { query: 'websocket reconnect', limit: 5 } })) as unknown as { structuredContent: Found })
        .structuredContent;
    try {
      const both = await search();
      assert.ok(both.results.some((r) => r.owner === 'alice'));
      const read = (await client.callTool({ name: 'read_session', arguments: { docid: `team:alice:laptop-a:claude-code:${uuid(1)}#3` } })) as unknown as {
        structuredContent: { found: boolean; text: string };
      };
      assert.equal(read.structuredContent.found, true);
      assert.match(read.structuredContent.text, /30 seconds/);
      const context = (
        (await client.callTool({ name: 'search_context', arguments: { query: 'exponential backoff jitter', threshold: 0 } })) as unknown as {
          structuredContent: { results: { sessionId: string; snippet: string }[] };
        }
      ).structuredContent;
      const block = context.results.find((b) => b.sessionId.startsWith('team:alice:laptop-a:'));
      assert.ok(block, 'search_context gives blocks of the shared team session');
      assert.match(block.snippet, /backoff/);
      cluster.kill();
      const down = await search();
      assert.match(down.teamNotice ?? '', /cannot be reached.*local results only/);
      assert.deepEqual(
        down.results.map((r) => r.id),
        [`claude-code:${uuid(5)}`],
      );
      cluster.start();
      await eventually(async () => (await search()).results.some((r) => r.owner === 'alice'), 'team results come back once the database is up again');
    } finally {
      await client.close();
    }
  });

  test('a schema newer than the client is refused with a message to upgrade', async () => {
    await cluster.sql('INSERT INTO session_search.schema_version (version) VALUES (99)');
    try {
      const r = alice.cli('team', 'status');
      assert.equal(r.code, 1);
      assert.match(r.stderr, /version 99, newer than this Session Search understands \(1\): upgrade/);
      const found = json<Found>(alice.cli('search', 'websocket', '--team', '--json'));
      assert.match(found.teamNotice ?? '', /upgrade/);
      assert.ok(found.results.length > 0, 'local results still come');
    } finally {
      await cluster.sql('DELETE FROM session_search.schema_version WHERE version = 99');
    }
  });

  test('a push killed with SIGKILL leaves whole sessions, and the next push finishes the rest', async () => {
    const filler = 'output line with enough words to make each turn a few kilobytes long '.repeat(40);
    for (let i = 0; i < 300; i++)
      claudeSession(
        alice.root,
        '/work/bigproj',
        uuid(1000 + i),
        Array.from({ length: 10 }, (_, k): Turn => [`step ${k} of task ${i}`, `${filler}${k}`]),
      );
    const child = spawn(process.execPath, alice.args('team', 'push', '--project', 'bigproj', '--json'), { env: alice.env, stdio: 'ignore' });
    const count = async (): Promise<number> =>
      Number((await cluster.sql<{ n: string }>(`SELECT count(*) AS n FROM session_search.sessions WHERE project = 'bigproj'`))[0].n);
    await eventually(async () => (await count()) > 0, 'the push starts writing', { timeoutMs: 60_000 });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const before = await count();
    assert.ok(before < 300, `the push was stopped part way (${before} of 300 written)`);
    const torn = await cluster.sql(
      `SELECT s.id FROM session_search.sessions s
       WHERE s.turn_count <> (SELECT count(*) FROM session_search.turns t WHERE t.owner = s.owner AND t.machine = s.machine AND t.session_id = s.id)`,
    );
    assert.deepEqual(torn, [], 'every session in the database is whole');
    const rest = json<Push>(alice.cli('team', 'push', '--project', 'bigproj', '--json'));
    assert.deepEqual([rest.selected, rest.written + rest.appended, rest.unchanged], [300, 300 - before, before]);
    assert.equal(await count(), 300);
  });
});
