/**
 * The user's own embedding model in a real VS Code: user settings name an endpoint on this machine (a local server with
 * a deterministic fake embedding: no ranking claim); the status bar says how far the sessions are embedded, then
 * stops saying it, and a search in the panel asks the model for the query's vector. Screenshots land in
 * test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startFakeEndpoint, type FakeEndpoint } from '../embed-server.js';
import { openWorkbench, packageVsix, panelFrame, runCommand, screenshot, setupE2e, step as stepOf, type Workbench } from './workbench.js';

let bench: Workbench;
let server: FakeEndpoint;

before(async () => {
  setupE2e();
  server = await startFakeEndpoint();
  // (slow enough that embedding is seen under way)
  server.stallMs = 250;
  bench = await openWorkbench({
    vsix: packageVsix(),
    settings: { 'sessionSearch.semantic.endpoint': server.url, 'sessionSearch.semantic.model': 'fake-embed' },
  });
});

after(async () => {
  await bench?.close();
  await server?.close();
});

const step = (name: string, body: () => Promise<void>): Promise<void> => stepOf(bench, name, body);

test('the status bar shows the sessions being embedded, and a search asks the model for its query', () =>
  step('model', async () => {
    const { page } = bench;
    const item = page.locator('.statusbar-item', { has: page.locator('.codicon-history') });
    const embedding = item.locator('.codicon-sparkle');
    await page
      .locator('.statusbar-item', { hasText: /\d+ sessions/ })
      .first()
      .waitFor({ timeout: 120_000 });
    // the engine was given the model by the window's settings, and asks it
    for (let i = 0; i < 300 && !server.requests.length; i++) await page.waitForTimeout(200);
    assert.ok(server.requests.length > 0, 'the engine never asked the endpoint');
    await embedding.waitFor({ timeout: 120_000 });
    assert.match(await item.innerText(), /sessions\s+\d+%/);
    await item.hover();
    await page
      .locator('.monaco-hover, .hover-contents', { hasText: 'Your embedding model (endpoint:fake-embed) is embedding sessions' })
      .first()
      .waitFor({ timeout: 20_000 });
    await screenshot(page, 'model-embedding');
    await page.keyboard.press('Escape');
    server.stallMs = 0;
    await embedding.waitFor({ state: 'detached', timeout: 180_000 });
    const texts = server.requests.flatMap((r) => r.input);
    assert.ok(texts.length > 50, `only ${texts.length} texts embedded`);

    await runCommand(page, 'Session Search: Open Search Panel');
    const frame = panelFrame(page);
    const query = frame.locator('vscode-textfield#query input');
    await query.waitFor({ timeout: 30_000 });
    await query.fill('postgres storage');
    await frame
      .locator('.count')
      .filter({ hasText: /\d+ sessions?/ })
      .waitFor({ timeout: 30_000 });
    assert.ok(
      server.requests.some((r) => r.input.includes('postgres storage')),
      'the window asked the model for the query',
    );
    await screenshot(page, 'model-search');
  }));
