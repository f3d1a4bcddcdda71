/**
 * Workspace trust as users have it (on): `npm start` shows Session Search at once, and in Restricted Mode the product
 * works over the user's own histories, says what trusting would add, and adds it once the folder is trusted.
 * Screenshots land in test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { ROOT, tempDir } from '../helpers.js';
import { BROWSER_ARGS, freePort, openWorkbench, packageVsix, runCommand, screenshot, setupE2e, trustWorkspace } from './workbench.js';

test(
  'npm start on a machine with no sessions: the workbench opens with Session Search showing the demo sessions, trust left on',
  { timeout: 300_000 },
  async () => {
    setupE2e();
    const run = tempDir('ssstart-');
    const home = join(run, 'home');
    mkdirSync(home);
    const port = await freePort();
    // What `npm start` runs after its build, as a new user: an empty HOME (no sessions, no data folder yet).
    const start = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], {
      cwd: ROOT,
      env: { ...process.env, HOME: home, TMPDIR: run, PORT: String(port), SESSION_SEARCH_START_STATE: join(run, 'state'), SESSION_SEARCH_USE_CODE_SERVER: '1' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    start.stdout.on('data', (d: Buffer) => (output += d.toString()));
    start.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const context = await chromium.launchPersistentContext(join(run, 'browser'), {
      executablePath: '/usr/bin/chromium',
      viewport: { width: 1400, height: 900 },
      args: BROWSER_ARGS,
    });
    try {
      const until = Date.now() + 180_000;
      let url: string | undefined;
      while (!url && Date.now() < until) {
        url = /(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/.exec(output)?.[1];
        if (
          url &&
          !(await fetch(`http://127.0.0.1:${port}/healthz`).then(
            (r) => r.ok,
            () => false,
          ))
        )
          url = undefined;
        if (!url) await new Promise((r) => setTimeout(r, 250));
      }
      assert.ok(url, `npm start printed the workbench's address:\n${output}`);
      assert.match(output, /adding the demo sessions/);
      assert.ok(
        !decodeURIComponent(url).includes(`folder=${ROOT}&`) && !decodeURIComponent(url).endsWith(`folder=${ROOT}`),
        'a folder of its own, not the repository',
      );
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(url);
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      const opened = Date.now();
      // The Sessions view is shown without a click, and lists the demo sessions.
      const rows = page.locator('.sidebar .monaco-list-row[role="treeitem"]');
      await rows
        .filter({ hasText: /postgres|rate limiter|flaky/i })
        .first()
        .waitFor({ timeout: 60_000 });
      assert.ok(Date.now() - opened < 60_000, 'sessions listed within a minute');
      assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no prompt in the way');
      await page.locator('.activitybar a.action-label[aria-label^="Session Search"]').waitFor();
      await page.locator('.statusbar, .monaco-workbench .banner').filter({ hasText: 'Restricted Mode' }).first().waitFor({ timeout: 20_000 });
      await screenshot(page, 'npm-start');
    } catch (err) {
      const page = context.pages()[0];
      if (page) await screenshot(page, 'FAILED-npm-start').catch(() => undefined);
      throw err;
    } finally {
      await context.close().catch(() => undefined);
      try {
        if (start.pid) process.kill(-start.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  },
);

test("in Restricted Mode the user's own histories are searchable; trusting the folder adds its Aider history", { timeout: 300_000 }, async () => {
  const bench = await openWorkbench({ vsix: packaged(), trust: 'restricted' });
  const rows = () => bench.page.locator('.sidebar .monaco-list-row[role="treeitem"]');
  try {
    await bench.page.locator('.activitybar a.action-label[aria-label^="Session Search"]').click();
    await rows().filter({ hasText: 'Empty Repo Setup: CLAUDE.md Foundation Created' }).first().waitFor({ timeout: 90_000 });
    const note = bench.page.locator('.sidebar .message', { hasText: 'Restricted Mode' });
    await note.waitFor({ timeout: 20_000 });
    assert.match(await note.innerText(), /Aider histories inside this workspace are read once you trust it/);
    await runCommand(bench.page, 'Session Search: Group by Source');
    await rows()
      .filter({ hasText: /^claude-code\s*\d+/ })
      .first()
      .waitFor({ timeout: 20_000 });
    assert.equal(
      await rows()
        .filter({ hasText: /^aider\s*\d+/ })
        .count(),
      0,
      "the workspace's Aider history is not read in Restricted Mode",
    );
    await screenshot(bench.page, 'restricted-mode');

    // Trust the folder the way a person does: Workspaces: Manage Workspace Trust, then Trust.
    await trustWorkspace(bench.page);
    await rows()
      .filter({ hasText: /^aider\s*\d+/ })
      .first()
      .waitFor({ timeout: 60_000 });
    assert.equal(await bench.page.locator('.sidebar .message', { hasText: 'Restricted Mode' }).count(), 0, 'the note is gone once trusted');
    await screenshot(bench.page, 'trusted-after-restricted');
  } catch (err) {
    await bench.failed('restricted-mode');
    throw err;
  } finally {
    await bench.close();
  }
});

/** The extension packaged as users install it. */
function packaged(): string {
  setupE2e();
  return packageVsix();
}
