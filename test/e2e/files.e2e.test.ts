/**
 * The conversations behind a file, in a real VS Code: the "Sessions for This File" view follows the open file, a hover
 * on lines an agent wrote names the session, and "Why Is This Code Here?" opens the reader at the turn that wrote them;
 * the search panel lists the decisions the sessions made.
 * Screenshots land in test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openWorkbench, packageVsix, panelFrame, runCommand, screenshot, setupE2e, step as stepOf, type Workbench } from './workbench.js';

let bench: Workbench;

before(async () => {
  setupE2e();
  bench = await openWorkbench({ vsix: packageVsix() });
});

after(async () => {
  await bench?.close();
});

const step = (name: string, body: () => Promise<void>): Promise<void> => stepOf(bench, name, body);

test('the sessions behind the open file, who wrote a line on hover, and Why Is This Code Here? opening the turn', () =>
  step('file-sessions', async () => {
    const { page } = bench;
    await page.locator('.activitybar a.action-label[aria-label^="Session Search"]').click();
    // the sessions are indexed (the tree shows one of them) before the file is asked about
    await page.locator('.sidebar .monaco-list-row', { hasText: 'make the retry loop back off' }).first().waitFor({ timeout: 90_000 });
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget .quick-input-box input').fill('retry.ts');
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'retry.ts' }).first().waitFor({ timeout: 20_000 });
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: 'retry.ts' }).waitFor({ timeout: 20_000 });
    // the view starts collapsed (it costs nothing until opened): open it
    const header = page.locator('.sidebar .pane-header', { hasText: /Sessions for This File/i });
    await header.click();
    // its rows say what the agent did (the Sessions tree above says how many turns)
    const rows = page.locator('.sidebar .monaco-list-row[role="treeitem"]', { hasText: /Claude Code · .* · (edited|wrote)/ });
    await rows.filter({ hasText: 'make the retry loop back off' }).first().waitFor({ timeout: 30_000 });
    await rows.filter({ hasText: 'add a retry helper for flaky requests' }).first().waitFor({ timeout: 10_000 });
    const texts = await rows.allInnerTexts();
    assert.equal(texts.length, 2, texts.join(' | '));
    assert.match(texts[0], /make the retry loop back off.*edited/s, 'newest first');
    assert.match(texts[1], /add a retry helper.*wrote/s);
    await screenshot(page, 'file-sessions');

    // hover the line the second session added
    const line = page.locator('.monaco-editor .view-line', { hasText: 'await sleep(2 ** i * 100);' }).first();
    await line.hover({ position: { x: 60, y: 5 } });
    const hover = page.locator('.monaco-hover', { hasText: 'make the retry loop back off' }).first();
    await hover.waitFor({ timeout: 20_000 });
    assert.match(await hover.innerText(), /Claude\sCode\s·\s.*ago/, 'the source and when');
    assert.match(await hover.innerText(), /Open\sthe\sconversation\s·\swrote\slines\s2–4/);
    await screenshot(page, 'line-hover');
    await page.keyboard.press('Escape');

    // the cursor on that line: Why Is This Code Here? opens the reader at the turn that wrote it
    await line.click();
    await runCommand(page, 'Session Search: Why Is This Code Here?');
    await page.locator('.tabs-container .tab.active', { hasText: 'make the retry loop back off' }).waitFor({ timeout: 20_000 });
    await page.locator('.monaco-editor .view-lines', { hasText: 'await sleep' }).first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'why-this-code');
  }));

test("the search panel's Decisions: what the sessions settled, per project, newest first, each opening its turn", () =>
  step('panel-decisions', async () => {
    const { page } = bench;
    await runCommand(page, 'Session Search: Open Search Panel');
    const frame = panelFrame(page);
    await frame.locator('vscode-button#decisions').click();
    const section = frame.locator('section.decisions');
    await section.locator('h3', { hasText: 'Decisions' }).waitFor({ timeout: 20_000 });
    // the real CodeArchitect samples: a person told the agent which temporary directory to use, and it did
    const decision = section.locator('.decision', { hasText: 'GitTemporaryDirectory' }).first();
    await decision.waitFor({ timeout: 20_000 });
    const dates = (await section.locator('.decision-project').first().locator('.decision .meta').allInnerTexts()).map((t) => t.slice(0, 10));
    assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first');
    await screenshot(page, 'panel-decisions');
    await decision.click();
    await frame.locator('section.reader', { hasText: 'GitTemporaryDirectory' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'panel-decision-opened');
  }));
