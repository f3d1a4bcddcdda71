/**
 * The team archive in a real VS Code: a colleague (alice) pushed a project and shared it; the person at this VS Code
 * (carol, whose user settings name the team database) searches "This machine and team" in the panel, sees alice's
 * session marked as hers, opens it in the reader, shows the team's sessions in the tree, and pushes her own project
 * with Push to Team Archive. PostgreSQL is a
 * cluster of the test's own (test/pg-cluster.ts). Screenshots land in test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, tempDir, writeFile } from '../helpers.js';
import { eventually } from '../eventually.js';
import { ADMIN, startCluster, type Cluster } from '../pg-cluster.js';
import { openWorkbench, packageVsix, panelFrame, runCommand, screenshot, setupE2e, type Workbench } from './workbench.js';

let cluster: Cluster;
let bench: Workbench;

before(async () => {
  setupE2e();
  cluster = await startCluster();
  const cli = (env: NodeJS.ProcessEnv, ...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args], { encoding: 'utf8', env });
  const init = cli(process.env, 'team', 'init', '--db', cluster.url(ADMIN));
  assert.equal(init.status, 0, init.stderr);
  for (const role of ['alice', 'carol']) await cluster.createRole(role, 'IN ROLE session_search_member');
  const root = tempDir();
  const id = '00000000-0000-4000-8000-00000000e2e1';
  const lines = [
    { type: 'user', text: 'Write the zephyr rollout checklist for the orbit service' },
    { type: 'assistant', text: 'Checklist: canary at 5%, watch error budget, then widen the zephyr rollout.' },
  ].map((l, i) =>
    JSON.stringify({
      sessionId: id,
      cwd: '/work/orbit',
      type: l.type,
      uuid: `x${i}`,
      timestamp: `2026-10-02T09:0${i}:00Z`,
      message: l.type === 'user' ? { role: 'user', content: l.text } : { id: 'm1', role: 'assistant', content: [{ type: 'text', text: l.text }] },
    }),
  );
  writeFile(join(root, '-work-orbit', `${id}.jsonl`), `${lines.join('\n')}\n`);
  const alice = {
    ...process.env,
    HOME: tempDir(),
    SESSION_SEARCH_HOME: tempDir(),
    SESSION_SEARCH_TEAM_DB: cluster.url('alice'),
    SESSION_SEARCH_MACHINE: 'laptop-a',
  };
  const pushed = cli(alice, 'team', 'push', '--project', 'orbit', '--root', `claude-code=${root}`);
  assert.equal(pushed.status, 0, pushed.stderr);
  assert.equal(cli(alice, 'team', 'share', 'orbit', 'carol').status, 0);
  const vsix = packageVsix();
  bench = await openWorkbench({
    vsix,
    settings: {
      'sessionSearch.team.database': cluster.url('carol'),
      'sessionSearch.team.machine': 'carol-laptop',
      'sessionSearch.team.projects': ['workspace'],
    },
  });
});

after(async () => {
  await bench?.close();
  cluster?.stop();
});

test('the panel searches this machine and the team: a shared session shows whose it is and opens in the reader', { timeout: 180_000 }, async () => {
  const frame = () => panelFrame(bench.page);
  try {
    await runCommand(bench.page, 'Session Search: Open Search Panel');
    const query = frame().locator('vscode-textfield#query input');
    await query.waitFor({ timeout: 30_000 });
    await frame().locator('vscode-single-select#scope').click();
    await frame().locator('vscode-single-select#scope').getByRole('option', { name: 'This machine and team' }).click();
    await query.fill('zephyr rollout');
    const hit = frame().locator('.result', { hasText: 'team: alice@laptop-a' });
    await hit.waitFor({ timeout: 30_000 });
    assert.match(await hit.locator('.snippet').first().innerText(), /zephyr/i);
    assert.equal(await hit.locator('.codicon-organization').count(), 1, 'a team session has its own icon');
    await screenshot(bench.page, 'panel-team');
    await hit.locator('.title').click();
    await frame().locator('.reader .turn', { hasText: 'canary at 5%' }).waitFor({ timeout: 20_000 });
    await screenshot(bench.page, 'panel-team-reader');
    await bench.page.keyboard.press('Escape');
  } catch (err) {
    await bench.failed('panel-team');
    throw err;
  }
});

test('Show Team Sessions adds the sessions shared with you to the tree, marked as the team’s, and opens one', { timeout: 120_000 }, async () => {
  const rows = () => bench.page.locator('.sidebar .monaco-list-row[role="treeitem"]');
  try {
    await bench.page.locator('.activitybar a.action-label[aria-label^="Session Search"]').click();
    await runCommand(bench.page, 'Session Search: Show Team Sessions');
    const row = rows().filter({ hasText: 'team: alice@laptop-a' }).first();
    await row.waitFor({ timeout: 30_000 });
    assert.match(await row.innerText(), /zephyr rollout/i);
    await screenshot(bench.page, 'tree-team');
    await row.click();
    await bench.page.locator('.monaco-editor .view-lines', { hasText: 'canary at 5%' }).first().waitFor({ timeout: 30_000 });
    await runCommand(bench.page, 'Session Search: Hide Team Sessions');
    await row.waitFor({ state: 'detached', timeout: 30_000 });
  } catch (err) {
    await bench.failed('tree-team');
    throw err;
  }
});

test("Push to Team Archive sends the chosen project's sessions, and says how many", { timeout: 120_000 }, async () => {
  try {
    await runCommand(bench.page, 'Session Search: Push to Team Archive');
    await bench.page.locator('.notifications-toasts', { hasText: /Team archive: \d+ sessions? written/ }).waitFor({ timeout: 60_000 });
    await screenshot(bench.page, 'team-push');
    await eventually(
      async () => Number((await cluster.sql<{ n: string }>(`SELECT count(*) AS n FROM session_search.sessions WHERE owner = 'carol'`))[0].n) > 0,
      "carol's sessions of the workspace are in the team archive",
    );
    const projects = await cluster.sql<{ project: string }>(`SELECT DISTINCT project FROM session_search.sessions WHERE owner = 'carol'`);
    assert.deepEqual(
      projects.map((p) => p.project),
      ['workspace'],
      'only the chosen project',
    );
  } catch (err) {
    await bench.failed('team-push');
    throw err;
  }
});
