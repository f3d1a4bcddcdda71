/**
 * The extension in a real VS Code (code-server + Chromium), used as a person would: the Sessions tree, regrouping,
 * and the palette search opening the reader at the hit. Screenshots land in test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from './helpers.js';
import { openWorkbench, runCommand, screenshot, type Workbench } from './e2e/workbench.js';

let bench: Workbench;

before(async () => {
  const setup = spawnSync('bash', [join(ROOT, 'scripts', 'e2e-setup.sh')], { stdio: 'inherit' });
  assert.equal(setup.status, 0, 'e2e setup (Chromium, Node 24, code-server) succeeded');
  const vsix = join(mkdtempSync('/tmp/ssvsix-'), 'session-search.vsix');
  const pack = spawnSync('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsix], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(pack.status, 0, pack.stderr);
  assert.ok(existsSync(vsix));
  bench = await openWorkbench({ vsix });
});

after(async () => {
  await bench?.close();
});

/** On failure, keep a picture of what the user would have seen. */
async function step(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    await screenshot(bench.page, `FAILED-${name}`).catch(() => undefined);
    throw err;
  }
}

const treeRows = () => bench.page.locator('.sidebar .monaco-list-row[role="treeitem"]');

describe('Session Search in VS Code', () => {
  test('the Sessions tree shows sessions grouped by date, from every kind of source', () =>
    step('tree', async () => {
      await bench.page.locator('.activitybar a.action-label[aria-label^="Session Search"]').click();
      await treeRows().filter({ hasText: 'Empty Repo Setup: CLAUDE.md Foundation Created' }).first().waitFor({ timeout: 90_000 });
      const labels = await treeRows().allInnerTexts();
      assert.ok(labels.some((l) => /^(Today|Yesterday|This Week|[A-Z][a-z]+ \d{4})/.test(l)), 'date groups');
      await screenshot(bench.page, 'tree-by-date');
    }));

  test('the tree regroups by source: Claude Code, Codex, CodeArchitect, Copilot Chat, Gemini and Aider', () =>
    step('tree-by-source', async () => {
      await runCommand(bench.page, 'Session Search: Group by Source');
      for (const source of ['claude-code', 'codex', 'codearchitect', 'copilot-chat', 'gemini', 'aider']) {
        await treeRows().filter({ hasText: new RegExp(`^${source}\\s*\\d+`) }).first().waitFor({ timeout: 20_000 });
      }
      await screenshot(bench.page, 'tree-by-source');
    }));

  test('Search Sessions… finds a known session as you type and opens the reader at the hit', () =>
    step('search', async () => {
      await runCommand(bench.page, 'Session Search: Search Sessions…');
      const input = bench.page.locator('.quick-input-widget .quick-input-box input');
      await input.fill('MockRepoMap max_map_tokens');
      const hit = bench.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'python' }).first();
      await hit.waitFor({ timeout: 20_000 });
      await screenshot(bench.page, 'search-quickpick');
      await bench.page.keyboard.press('Enter');
      await bench.page.locator('.tabs-container .tab.active', { hasText: 'python' }).waitFor({ timeout: 20_000 });
      await bench.page.locator('.monaco-editor .view-lines', { hasText: 'MockRepoMap' }).first().waitFor({ timeout: 20_000 });
      await screenshot(bench.page, 'reader');
    }));
});

describe('inside the extension host', () => {
  test('the Copilot tools answer through vscode.lm.invokeTool and the MCP provider gives a definition', async () => {
    const runner = join(mkdtempSync('/tmp/sshost-'), 'host-tests.cjs');
    const built = spawnSync('npx', ['esbuild', join(ROOT, 'test', 'e2e', 'host-tests.ts'), '--bundle', '--platform=node', '--format=cjs', '--external:vscode', `--outfile=${runner}`], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    let exitCode: number | undefined;
    const host = await openWorkbench({ developmentPath: ROOT, testsPath: runner, onTestsExit: (code) => (exitCode = code) });
    try {
      const until = Date.now() + 150_000;
      while (exitCode === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      if (exitCode !== 0) await screenshot(host.page, 'FAILED-extension-host-tests');
      assert.equal(exitCode, 0, 'the extension-host tests passed (see the workbench log on failure)');
    } finally {
      await host.close();
    }
  });
});
