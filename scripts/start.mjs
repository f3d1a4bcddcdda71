#!/usr/bin/env node
// `npm start [-- <words>]`: builds, then searches the user's own sessions (or lists the newest), falling back to the
// bundled demo sessions when none are found on this machine. The VS Code workbench launch joins this command when
// the extension lands.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');
const run = (args) => spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' }).status ?? 1;
const probe = spawnSync(process.execPath, [cli, 'list', '--json', '--limit', '1'], { encoding: 'utf8' });
const hasOwn = probe.status === 0 && JSON.parse(probe.stdout).count > 0;
const roots = hasOwn ? [] : ['--root', `codearchitect=${join(root, 'demo', 'codearchitect')}`];
if (!hasOwn) process.stdout.write('No sessions found in the default folders (~/.claude/projects, ~/.codex/sessions, ~/.codearchitect/sessions): showing the demo sessions.\n\n');
const words = process.argv.slice(2);
const status = words.length ? run(['search', ...words, ...roots]) : run(['list', ...roots]);
process.stdout.write(`\nTry: npm start -- <words>   or   node dist/cli.js search <words> --help\n`);
process.exit(status);
