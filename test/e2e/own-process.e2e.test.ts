/**
 * A window no engine can serve (here SESSION_SEARCH_ENGINE=off, as where no socket can be made): the extension starts
 * an index server of the window's own, which answers from its own library, in a real VS Code. The sessions are listed
 * and found as when the engine answers. Screenshots land in test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { eventually } from '../eventually.js';
import { indexServersOf, openWorkbench, packageVsix, runCommand, screenshot, setupE2e } from './workbench.js';

test('where no engine can serve the window, an index server of its own lists and finds the sessions', { timeout: 300_000 }, async () => {
  setupE2e();
  const bench = await openWorkbench({ vsix: packageVsix(), env: { SESSION_SEARCH_ENGINE: 'off' } });
  const rows = () => bench.page.locator('.sidebar .monaco-list-row[role="treeitem"]');
  try {
    await bench.page.locator('.activitybar a.action-label[aria-label^="Session Search"]').click();
    await rows().filter({ hasText: 'Empty Repo Setup: CLAUDE.md Foundation Created' }).first().waitFor({ timeout: 90_000 });
    await eventually(() => indexServersOf(bench.dataDir).length === 1, 'one index server runs for the window');
    assert.ok(!existsSync(join(bench.dataDir, 'engine', 'pid')), 'no engine was started');
    await runCommand(bench.page, 'Session Search: Group by Source');
    await rows()
      .filter({ hasText: /^claude-code\s*\d+/ })
      .first()
      .waitFor({ timeout: 20_000 });
    await screenshot(bench.page, 'own-index-server');
    // and says why when asked which engine serves it
    await runCommand(bench.page, 'Session Search: Show Engine Status');
    const dialog = bench.page.locator('.monaco-dialog-box', { hasText: 'this window has an index server of its own' });
    await dialog.waitFor({ timeout: 20_000 });
    assert.match(await dialog.innerText(), /SESSION_SEARCH_ENGINE=off/);
    await screenshot(bench.page, 'own-index-server-status');
    await bench.page.keyboard.press('Escape');
  } catch (err) {
    await bench.failed('own-index-server');
    throw err;
  } finally {
    await bench.close();
  }
});
