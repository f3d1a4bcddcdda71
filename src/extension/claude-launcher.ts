/**
 * A launcher for Claude Code that survives extension updates: the extension's install path contains its version, so
 * `claude mcp add` points at a small script in the data folder that the extension rewrites on every activation.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MCP_NODE_FLAGS } from '../mcp/launch.js';

export async function writeLauncher(dataFolder: string, nodePath: string, serverPath: string, platform = process.platform): Promise<string> {
  const bin = join(dataFolder, 'bin');
  await mkdir(bin, { recursive: true });
  const windows = platform === 'win32';
  const file = join(bin, windows ? 'session-search-mcp.cmd' : 'session-search-mcp');
  const body = windows
    ? `@echo off\r\nset ELECTRON_RUN_AS_NODE=1\r\n"${nodePath}" ${MCP_NODE_FLAGS.join(' ')} "${serverPath}" %*\r\n`
    : `#!/bin/sh\nELECTRON_RUN_AS_NODE=1 exec '${nodePath.replace(/'/g, `'\\''`)}' ${MCP_NODE_FLAGS.join(' ')} '${serverPath.replace(/'/g, `'\\''`)}' "$@"\n`;
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, body, { mode: 0o755 });
  await rename(temp, file);
  return file;
}

export function claudeAddCommand(launcher: string): string {
  return `claude mcp add -s user session-search -- ${/\s/.test(launcher) ? `"${launcher}"` : launcher}`;
}
