/**
 * The extension in a real VS Code (code-server + Chromium), used as a person would: the Sessions tree, regrouping,
 * and the palette search opening the reader at the hit. Screenshots land in test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  indexServersOf,
  openWorkbench,
  packageVsix,
  panelFrame,
  PLANTED_PASSWORD,
  PLANTED_SECRET,
  runCommand,
  screenshot,
  setupE2e,
  step as stepOf,
  type Workbench,
} from './workbench.js';

let bench: Workbench;

before(async () => {
  setupE2e();
  const vsix = packageVsix();
  bench = await openWorkbench({ vsix });
});

after(async () => {
  await bench?.close();
});

const step = (name: string, body: () => Promise<void>): Promise<void> => stepOf(bench, name, body);

const treeRows = () => bench.page.locator('.sidebar .monaco-list-row[role="treeitem"]');

describe('Session Search in VS Code', () => {
  test('the Sessions tree shows sessions grouped by date, from every kind of source', () =>
    step('tree', async () => {
      await bench.page.locator('.activitybar a.action-label[aria-label^="Session Search"]').click();
      await treeRows().filter({ hasText: 'Empty Repo Setup: CLAUDE.md Foundation Created' }).first().waitFor({ timeout: 90_000 });
      const labels = await treeRows().allInnerTexts();
      assert.ok(
        labels.some((l) => /^(Today|Yesterday|This Week|[A-Z][a-z]+ \d{4})/.test(l)),
        'date groups',
      );
      await screenshot(bench.page, 'tree-by-date');
      // the window is answered by the data folder's engine, its extension host linked to it: no process of its own
      const pid = Number(readFileSync(join(bench.dataDir, 'engine', 'pid'), 'utf8'));
      assert.ok(existsSync(`/proc/${pid}`), 'the engine of the data folder runs');
      assert.deepEqual(indexServersOf(bench.dataDir), [], 'no index server of its own runs for the window');
    }));

  test('Show Engine Status says which engine serves the window, with its sessions and this window among its clients', () =>
    step('engine-status', async () => {
      await runCommand(bench.page, 'Session Search: Show Engine Status');
      const pid = readFileSync(join(bench.dataDir, 'engine', 'pid'), 'utf8').trim();
      const dialog = bench.page.locator('.monaco-dialog-box', { hasText: `running, pid ${pid}` });
      await dialog.waitFor({ timeout: 20_000 });
      const text = await dialog.innerText();
      assert.match(text, /Sessions: [\d,]+ searchable/);
      assert.match(text, /Clients: 1 VS Code window, /);
      await screenshot(bench.page, 'engine-status');
      await bench.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    }));

  test('the tree regroups by source: Claude Code, Codex, CodeArchitect, Copilot Chat, Gemini and Aider', () =>
    step('tree-by-source', async () => {
      await runCommand(bench.page, 'Session Search: Group by Source');
      for (const source of ['claude-code', 'codex', 'codearchitect', 'copilot-chat', 'gemini', 'aider']) {
        await treeRows()
          .filter({ hasText: new RegExp(`^${source}\\s*\\d+`) })
          .first()
          .waitFor({ timeout: 20_000 });
      }
      await screenshot(bench.page, 'tree-by-source');
    }));

  test('sub-agents are nested under the session that started them, which says how many it has', () =>
    step('tree-subagents', async () => {
      // still grouped by source: the parent is a row of the claude-code group, its two sub-agents under it
      const parent = treeRows().filter({ hasText: '最新の状態にアップデート' }).first();
      await parent.waitFor({ timeout: 20_000 });
      assert.match(await parent.innerText(), /2 sub-agents/);
      const agent = treeRows().filter({ hasText: 'Sub-agent: Run the test suite' });
      assert.equal(await agent.count(), 0, 'not beside it');
      await parent.locator('.monaco-tl-twistie').click();
      await agent.first().waitFor({ timeout: 10_000 });
      await treeRows().filter({ hasText: 'Sub-agent: Build the project' }).first().waitFor({ timeout: 10_000 });
      await screenshot(bench.page, 'tree-subagents');
      await parent.locator('.monaco-tl-twistie').click();
    }));

  test('Search Sessions… (its own keybinding) finds a known session as you type and opens the reader at the hit', () =>
    step('search', async () => {
      await bench.page.locator('.monaco-workbench').click({ position: { x: 5, y: 5 } });
      await bench.page.keyboard.press('Control+Shift+Alt+KeyH');
      const input = bench.page.locator('.quick-input-widget .quick-input-box input');
      await input.fill('MockRepoMap max_map_tokens');
      const hit = bench.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'python' }).first();
      await hit.waitFor({ timeout: 20_000 });
      // how many sessions matched, in the picker's title
      await bench.page
        .locator('.quick-input-widget .quick-input-title', { hasText: /^\d[\d,]* sessions?$|^\d+ of [\d,]+ sessions$/ })
        .waitFor({ timeout: 20_000 });
      await screenshot(bench.page, 'search-quickpick');
      await bench.page.keyboard.press('Enter');
      await bench.page.locator('.tabs-container .tab.active', { hasText: 'python' }).waitFor({ timeout: 20_000 });
      await bench.page.locator('.monaco-editor .view-lines', { hasText: 'MockRepoMap' }).first().waitFor({ timeout: 20_000 });
      await screenshot(bench.page, 'reader');
    }));

  test('the walkthrough shows its three steps', () =>
    step('walkthrough', async () => {
      await runCommand(bench.page, 'Welcome: Open Walkthrough...');
      await bench.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Get started with Session Search' }).first().click();
      for (const title of ['Search your sessions', 'Open the search panel', 'Connect Claude Code'])
        await bench.page.locator('.getting-started-step', { hasText: title }).first().waitFor({ timeout: 20_000 });
      await screenshot(bench.page, 'walkthrough');
      await bench.page.keyboard.press('Control+KeyW');
    }));
});

describe('the search panel', () => {
  const frame = () => panelFrame(bench.page);
  /** Opens the panel and searches for `words`: its query box and the line that counts the results. */
  const searchPanel = async (words: string) => {
    await runCommand(bench.page, 'Session Search: Open Search Panel');
    const query = frame().locator('vscode-textfield#query input');
    await query.waitFor({ timeout: 30_000 });
    await query.fill(words);
    return { query, count: frame().locator('.count') };
  };

  test('says how many sessions matched, and Show 100 More adds the next of the same search', () =>
    step('panel-more', async () => {
      // (any of the words: more than the 100 sessions the panel shows at first)
      const { count } = await searchPanel('file code python function');
      await count.filter({ hasText: /^100 of \d+ sessions/ }).waitFor({ timeout: 20_000 });
      const matched = Number(/of (\d+) sessions/.exec(await count.innerText())![1]);
      assert.equal(await frame().locator('.results .result').count(), 100);
      const more = frame().locator('vscode-button#show-more:not([hidden])');
      await more.click();
      const shown = Math.min(matched, 200);
      await count.filter({ hasText: new RegExp(`^${shown === matched ? '' : `${shown} of `}${matched} sessions`) }).waitFor({ timeout: 20_000 });
      assert.equal(await frame().locator('.results .result').count(), shown);
      // the first session it added has the focus; the button goes once every match is shown
      assert.equal(await frame().locator('.results .result:focus').getAttribute('data-index'), '100');
      if (shown === matched) assert.equal(await frame().locator('vscode-button#show-more').isHidden(), true);
      await screenshot(bench.page, 'panel-show-more');
    }));

  test('searches, filters by source, and opens the reader with Show earlier / Show later', () =>
    step('panel', async () => {
      const { query, count } = await searchPanel('test');
      await count.filter({ hasText: /\d+ sessions?/ }).waitFor({ timeout: 20_000 });
      const all = /([\d,]+) session/.exec(await count.innerText())![1];
      assert.ok(Number(all.replaceAll(',', '')) > 1);
      await frame()
        .locator('.workspaces-line')
        .filter({ hasText: /\d+ workspaces? searched · \d+ turns?/ })
        .waitFor({ timeout: 20_000 });
      await frame().locator('vscode-button#export-results:not([hidden])').waitFor({ timeout: 10_000 });
      await screenshot(bench.page, 'panel-results');

      await frame().locator('vscode-single-select#source').click();
      await frame().locator('vscode-single-select#source').getByRole('option', { name: 'claude-code', exact: true }).click();
      // ("100 of 1,234 sessions" where more matched than the panel shows: the total is what changes)
      await count.filter({ hasText: new RegExp(`^(?:\\d+ of )?(?!${all} )[\\d,]+ sessions?`) }).waitFor({ timeout: 20_000 });
      const metas = await frame().locator('.result .meta').allInnerTexts();
      assert.ok(metas.length > 0 && metas.every((m) => m.includes('· claude-code')), 'only Claude Code sessions');

      await query.fill('localStorage');
      // wait for the new answer, not the previous query's results
      const hit = frame()
        .locator('.result', { hasText: 'create TODO app', has: frame().locator('mark', { hasText: 'localStorage' }) })
        .first();
      await hit.waitFor({ timeout: 20_000 });
      await hit.locator('.title').click();
      const turns = frame().locator('.reader .turn');
      await frame().locator('.reader .turn.hit').waitFor({ timeout: 20_000 });
      assert.equal(await turns.count(), 9, 'the hit with 4 turns either side');
      assert.equal(await frame().locator('vscode-button#later').getAttribute('disabled'), null);
      await frame().locator('vscode-button#later').click();
      await turns.nth(14).waitFor({ timeout: 20_000 });
      assert.equal(await turns.count(), 15, 'Show later adds 6 turns');
      await frame().locator('vscode-button#earlier').click();
      await turns.nth(20).waitFor({ timeout: 20_000 });
      assert.equal(await turns.count(), 21, 'Show earlier adds 6 turns');
      await frame().locator('.reader .turn.hit').scrollIntoViewIfNeeded();
      assert.match(await frame().locator('.reader .turn.hit').innerText(), /localStorage/i, 'the reader opens at the matching turn');
      await screenshot(bench.page, 'panel-reader');
      await bench.page.keyboard.press('Escape');
      await frame().locator('.results .result').first().waitFor({ state: 'visible', timeout: 10_000 });
    }));

  test('shows the matching exchanges by workspace as each workspace answers, with the line counting them, and opens the reader on one', () =>
    step('panel-workspaces', async () => {
      const line = frame().locator('.workspaces-line');
      await line.filter({ hasText: /\d+ workspaces? searched · \d+ turns?/ }).waitFor({ timeout: 20_000 });
      const [, searched, turns] = /(\d+) workspaces? searched · (\d+) turns?/.exec(await line.innerText())!.map(Number);
      assert.ok(searched >= 1 && turns >= 1, await line.innerText());
      await frame().locator('vscode-single-select#view').click();
      await frame().locator('vscode-single-select#view').getByRole('option', { name: 'Exchanges by workspace' }).click();
      const sections = frame().locator('.workspaces .workspace');
      await sections.first().waitFor({ state: 'visible', timeout: 10_000 });
      const counts = (await frame().locator('.workspaces .workspace-head').allInnerTexts()).map((t) => Number(/(\d+) matching turns?/.exec(t)?.[1]));
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        turns,
        'the workspaces shown hold every matching turn the line counts',
      );
      const exchange = sections
        .first()
        .locator('.exchange', { has: frame().locator('mark', { hasText: /localStorage/i }) })
        .first();
      await exchange.waitFor({ timeout: 10_000 });
      assert.ok((await exchange.locator('.exchange-user').count()) + (await exchange.locator('.exchange-reply').count()) >= 1);
      assert.equal(await frame().locator('.results').isVisible(), false, 'the sessions list gives way to the workspaces');
      await screenshot(bench.page, 'panel-workspaces');
      await exchange.click();
      await frame().locator('.reader .turn.hit').waitFor({ timeout: 20_000 });
      assert.match(await frame().locator('.reader .turn.hit').innerText(), /localStorage/i, 'the reader opens on the exchange');
      await bench.page.keyboard.press('Escape');
      await sections.first().waitFor({ state: 'visible', timeout: 10_000 });
      await frame().locator('vscode-single-select#view').click();
      await frame().locator('vscode-single-select#view').getByRole('option', { name: 'Sessions' }).click();
      await frame().locator('.results .result').first().waitFor({ state: 'visible', timeout: 10_000 });
    }));
});

describe('tags', () => {
  const frame = () => panelFrame(bench.page);
  const title = 'Empty Repo Setup: CLAUDE.md Foundation Created';

  test("a tag added from the tree's context menu groups the tree and is found by the panel's tag filter", () =>
    step('tags', async () => {
      // (the activity bar icon would hide the side bar if it is showing already)
      await runCommand(bench.page, 'Session Search: Focus on Sessions View');
      await runCommand(bench.page, 'Session Search: Group by Date');
      await treeRows().filter({ hasText: title }).first().waitFor({ timeout: 20_000 });
      await bench.page.waitForTimeout(500); // the regrouped tree settles before a row is picked
      const row = treeRows().filter({ hasText: title }).first();
      // the context menu lists Add Tag… on a session; the palette runs it on the session selected in the tree
      await row.click({ button: 'right' });
      const addTag = bench.page.locator('.context-view .action-label', { hasText: 'Add Tag…' }).first();
      await addTag.waitFor({ timeout: 10_000 });
      await screenshot(bench.page, 'tree-context-menu');
      await addTag.click();
      const input = bench.page.locator('.quick-input-widget .quick-input-box input');
      // a click during the menu's fade-in can be lost: the item under the mouse is focused, and Enter runs it
      if (!(await input.isVisible())) await bench.page.waitForTimeout(1000);
      if (!(await input.isVisible()) && (await addTag.isVisible())) await bench.page.keyboard.press('Enter');
      await input.fill('Zebra Tagged');
      await bench.page.keyboard.press('Enter');
      await treeRows().filter({ hasText: title }).filter({ hasText: '#zebra-tagged' }).first().waitFor({ timeout: 20_000 });
      await runCommand(bench.page, 'Session Search: Group by Tag');
      await treeRows()
        .filter({ hasText: /^zebra-tagged\s*1/ })
        .first()
        .waitFor({ timeout: 20_000 });
      await screenshot(bench.page, 'tree-by-tag');

      await runCommand(bench.page, 'Session Search: Open Search Panel');
      const query = frame().locator('vscode-textfield#query input');
      await query.waitFor({ timeout: 30_000 });
      await frame().locator('vscode-textfield#tags input').fill('zebra-tagged');
      await query.fill('CLAUDE');
      const count = frame().locator('.count');
      await count.filter({ hasText: /^1 session/ }).waitFor({ timeout: 20_000 });
      assert.match(await frame().locator('.result .title').first().innerText(), /Empty Repo Setup/);
      assert.match(await frame().locator('.result .meta').first().innerText(), /#zebra-tagged/);
      await screenshot(bench.page, 'panel-tag-filter');
      await frame().locator('vscode-textfield#tags input').fill('');
      await runCommand(bench.page, 'Session Search: Group by Date');
    }));

  test('the panel shows the preferences learned from the sessions, with their evidence, and a value set by hand wins', () =>
    step('preferences', async () => {
      await runCommand(bench.page, 'Session Search: Open Search Panel');
      await frame().locator('vscode-button#preferences').click();
      const section = frame().locator('section.preferences');
      await section.locator('h3', { hasText: 'Your preferences' }).waitFor({ timeout: 20_000 });
      const frameworks = section.locator('.pref[data-category="frameworks"]');
      await frameworks.waitFor({ timeout: 20_000 });
      assert.match(await frameworks.innerText(), /React/);
      assert.match(await frameworks.locator('.pref-evidence').first().innerText(), /\d+ sessions?/);
      await frameworks.locator('vscode-button', { hasText: 'Edit' }).click();
      const input = bench.page.locator('.quick-input-widget .quick-input-box input');
      await input.fill('React with Zustand, no Redux');
      await bench.page.keyboard.press('Enter');
      await frameworks.locator('.pref-manual').waitFor({ timeout: 20_000 });
      assert.match(await frameworks.locator('.pref-value').innerText(), /React with Zustand, no Redux/);
      await screenshot(bench.page, 'panel-preferences');
      await frame().locator('vscode-button#preferences').click();
    }));
});

describe('themes', () => {
  test('the panel follows the light and high-contrast themes', () =>
    step('themes', async () => {
      const settings = JSON.parse(readFileSync(bench.settingsFile, 'utf8')) as Record<string, unknown>;
      const results = () => panelFrame(bench.page).locator('.results .result').first();
      writeFileSync(bench.settingsFile, JSON.stringify({ ...settings, 'workbench.colorTheme': 'Default Light Modern' }));
      await bench.page.locator('.monaco-workbench.vs').waitFor({ timeout: 20_000 });
      await results().waitFor({ timeout: 10_000 });
      await screenshot(bench.page, 'panel-light');
      // High contrast the way a user picks it: Preferences: Color Theme.
      await bench.page.keyboard.press('F1');
      const input = bench.page.locator('.quick-input-widget .quick-input-box input');
      await input.fill('>Preferences: Color Theme');
      await bench.page.locator('.quick-input-widget .monaco-list-row', { hasText: /^Preferences: Color Theme(?!s)/ }).click();
      await input.fill('Dark High Contrast');
      await bench.page
        .locator('.quick-input-widget .quick-input-list .monaco-list-row.focused', { hasText: 'Dark High Contrast' })
        .waitFor({ timeout: 10_000 });
      await bench.page.keyboard.press('Enter');
      await bench.page.locator('.monaco-workbench.hc-black').waitFor({ timeout: 20_000 });
      await results().waitFor({ timeout: 10_000 });
      type Style = { getPropertyValue(name: string): string; outlineStyle: string };
      const outline = await panelFrame(bench.page)
        .locator('body')
        .evaluate((b) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): Style }).getComputedStyle(b).getPropertyValue('--vscode-contrastBorder').trim(),
        );
      assert.ok(outline.length > 0, 'the panel receives the high-contrast border colour');
      const mark = panelFrame(bench.page).locator('.results mark').first();
      assert.notEqual(
        await mark.evaluate((m) => (globalThis as unknown as { getComputedStyle(e: unknown): Style }).getComputedStyle(m).outlineStyle),
        'none',
        'matches stay visible without highlight colours',
      );
      await screenshot(bench.page, 'panel-high-contrast');
      writeFileSync(bench.settingsFile, JSON.stringify(settings));
    }));
});

describe('hostile transcripts and secrets', () => {
  const frame = () => panelFrame(bench.page);

  test('markup in a transcript stays text, nothing runs, and the planted secret is masked everywhere', () =>
    step('hostile', async () => {
      // the tree: the title comes from the first prompt, which held the secret
      await runCommand(bench.page, 'Session Search: Group by Date');
      const row = treeRows().filter({ hasText: 'zebrahostile' }).first();
      await row.waitFor({ timeout: 30_000 });
      const label = await row.innerText();
      assert.ok(label.includes('[redacted-secret]') && !label.includes(PLANTED_SECRET) && !label.includes(PLANTED_PASSWORD), label);

      // the panel: results and the reader
      await bench.page.locator('.tabs-container .tab', { hasText: 'Session Search' }).click();
      const query = frame().locator('vscode-textfield#query input');
      await query.waitFor({ timeout: 20_000 });
      await frame().locator('vscode-single-select#source').click();
      await frame().locator('vscode-single-select#source').getByRole('option', { name: 'Any source', exact: true }).click();
      await query.fill('zebrahostile');
      const result = frame().locator('.result', { hasText: 'zebrahostile' }).first();
      await result.waitFor({ timeout: 20_000 });
      await result.locator('.title').click();
      await frame().locator('.reader .turn.hit').waitFor({ timeout: 20_000 });
      const text = await frame().locator('.reader').innerText();
      assert.ok(text.includes('<script>window.__pwned = 1</script>'), 'the script tag is shown as text');
      assert.ok(text.includes('onerror='), 'the image tag is shown as text');
      assert.ok(!text.includes(PLANTED_SECRET) && text.includes('[redacted-secret]'), 'the secret is masked in the reader');
      assert.ok(!text.includes(PLANTED_PASSWORD) && text.includes('DB_PASSWORD=[redacted-secret]'), 'the password is masked in the reader');
      assert.ok(!text.includes('\u202E') && text.includes('⟦U+202E⟧gnp.exe'), 'a right-to-left override is shown, not obeyed');
      assert.ok(text.includes('a ten megabyte reply') && /more characters: copy the turn/.test(text), 'a 10 MB turn is shown cut, with a note');
      const page = frame().locator('body');
      assert.equal(await page.locator('script:not([src])').count(), 0, 'no inline script reached the page');
      assert.equal(
        await page.locator('img, a[href^="javascript:"], a[href^="command:"], .reader style').count(),
        0,
        'no element was made from transcript markup',
      );
      const pwned = await bench.page
        .frames()
        .reduce<Promise<unknown[]>>(
          async (acc, f) => [...(await acc), await f.evaluate(() => (globalThis as { __pwned?: number }).__pwned).catch(() => undefined)],
          Promise.resolve([]),
        );
      assert.ok(
        pwned.every((v) => v === undefined),
        'no transcript script ran in any frame',
      );
      await screenshot(bench.page, 'panel-hostile');
      await bench.page.keyboard.press('Escape');
      // still usable after all that: a new search answers
      await query.fill('CLAUDE.md Foundation');
      await frame().locator('.result', { hasText: 'Empty Repo Setup' }).first().waitFor({ timeout: 20_000 });

      // a turn written to a transcript while VS Code runs is found by the panel through the index server
      const transcript = join(bench.home, '.claude', 'projects', '-home-dev-hostile', '66666666-6666-4666-8666-666666666666.jsonl');
      appendFileSync(
        transcript,
        `${JSON.stringify({ type: 'user', uuid: 'h9', sessionId: '66666666-6666-4666-8666-666666666666', cwd: '/home/dev/hostile', timestamp: new Date().toISOString(), message: { role: 'user', content: 'quokkalive written while the editor runs' } })}\n`,
      );
      const written = Date.now();
      await query.fill('quokkalive');
      const live = frame().locator('.result', { hasText: 'quokkalive' }).first();
      for (let attempt = 0; !(await live.isVisible()) && Date.now() - written < 20_000; attempt++) {
        await query.fill(attempt % 2 ? 'quokkalive' : 'quokkalive ');
        await live.waitFor({ timeout: 500 }).catch(() => undefined);
      }
      assert.ok(await live.isVisible(), 'the appended turn is found');
    }));

  test('the reader renders Markdown, colours code from the theme, and folds thinking and tool output', () =>
    step('reader-markdown', async () => {
      const query = frame().locator('vscode-textfield#query input');
      await query.fill('zebramarkdown ledger');
      const result = frame().locator('.result', { hasText: 'zebramarkdown' }).first();
      await result.waitFor({ timeout: 20_000 });
      await result.locator('.title').click();
      const reader = frame().locator('.reader');
      await reader.locator('.turn.hit').waitFor({ timeout: 20_000 });
      await reader.locator('.turn-text h2', { hasText: 'Plan' }).waitFor({ timeout: 10_000 });
      assert.equal(await reader.locator('.turn-text table td', { hasText: 'chosen' }).count(), 1, 'the table is a table');
      assert.equal(await reader.locator('.turn-text li strong', { hasText: 'PostgreSQL' }).count(), 1, 'list and bold');
      assert.ok((await reader.innerText()).includes('pgbouncer (https://www.pgbouncer.org)'), 'a link shows its target as text');
      assert.equal(await reader.locator('a').count(), 0, 'no link element is made');
      const keyword = reader.locator('pre code.hljs .hljs-keyword', { hasText: 'const' }).first();
      await keyword.waitFor({ timeout: 5_000 });
      const colours = await keyword.evaluate((k) => [getComputedStyle(k).color, getComputedStyle(k.closest('pre')!).color]);
      assert.notEqual(colours[0], colours[1], `the keyword has its own theme colour (${colours.join(' vs ')})`);
      const thinking = reader.locator('.turn.kind-thinking details.fold');
      assert.match(await thinking.locator('summary').innerText(), /^Thinking · \d+ words/);
      assert.equal(await thinking.evaluate((d) => (d as HTMLDetailsElement).open), false, 'thinking starts folded');
      const output = reader.locator('.turn.role-tool details.fold').first();
      assert.match(await output.locator('summary').innerText(), /test 1 passed · 40 lines/);
      assert.equal(await output.evaluate((d) => (d as HTMLDetailsElement).open), false, 'long tool output starts folded');
      await screenshot(bench.page, 'panel-reader-markdown');
      await output.locator('summary').click();
      assert.equal(await output.evaluate((d) => (d as HTMLDetailsElement).open), true, 'a click opens it');
      assert.ok((await output.innerText()).includes('test 40 passed'));
      await bench.page.keyboard.press('Escape');

      // the chart: labelled axes, a count on hover, and a click on a bar filters to that day
      await query.fill('session');
      const bars = frame().locator('.chart rect.bar');
      await bars.first().waitFor({ timeout: 20_000 });
      assert.ok((await frame().locator('.chart text.axis').allTextContents()).includes('sessions per day'), 'the chart says what it counts');
      await bench.page.waitForTimeout(1_000); // results settle (a search answers as you type)
      const bar = bars.last();
      const day = (await bar.getAttribute('data-day'))!;
      const hover = frame().locator('.chart-hover', { hasText: `${day}: ` });
      for (let attempt = 0; attempt < 5 && !(await hover.isVisible()); attempt++) {
        await bench.page.mouse.move(0, 0);
        if (attempt % 2)
          await bar.focus(); // keyboard users get the count on focus
        else await bar.hover();
        await hover.waitFor({ timeout: 1_000 }).catch(() => undefined);
      }
      await hover.waitFor({ timeout: 1_000 });
      assert.match(await frame().locator('.chart-hover').innerText(), new RegExp(`^${day}: \\d+ sessions? · click`));
      await bar.click();
      await frame().locator('.result .meta', { hasText: day }).first().waitFor({ timeout: 20_000 });
      await bench.page.waitForTimeout(500);
      const dates = await frame().locator('.result .meta').allInnerTexts();
      assert.ok(dates.length > 0 && dates.every((d) => d.startsWith(day)), `only ${day} remains: ${dates.join(' | ')}`);
      assert.equal(
        await frame()
          .locator('vscode-textfield#from')
          .evaluate((f) => (f as HTMLElement & { value: string }).value),
        day,
      );
      await screenshot(bench.page, 'panel-chart-day');
      for (const id of ['from', 'to'])
        await frame()
          .locator(`vscode-textfield#${id}`)
          .evaluate((f) => ((f as HTMLElement & { value: string }).value = ''));
    }));
});
