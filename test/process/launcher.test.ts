/** The stable launcher that Claude Code is pointed at: it survives extension updates and starts the real server. */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { claudeAddCommand, writeLauncher } from '../../src/extension/claude-launcher.js';
import { CORPUS, ROOT, tempDir } from '../helpers.js';

test('the launcher in the data folder starts the bundled MCP server, and is rewritten in place on update', async () => {
  const data = tempDir();
  const launcher = await writeLauncher(data, process.execPath, join(ROOT, 'dist', 'mcp.js'));
  assert.equal(launcher, join(data, 'bin', 'session-search-mcp'));
  assert.ok(statSync(launcher).mode & 0o100, 'executable');
  // the server starts as the other launch lines start it (a young generation of 1 MB: src/mcp/launch.ts)
  assert.match(readFileSync(launcher, 'utf8'), / --max-semi-space-size=1 '[^']*mcp\.js' "\$@"$/m);
  assert.equal(claudeAddCommand(launcher), `claude mcp add -s user session-search -- ${launcher}`);
  assert.equal(await writeLauncher(data, process.execPath, join(ROOT, 'dist', 'mcp.js')), launcher, 'same path after an update');
  const client = new Client({ name: 'launcher-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: launcher,
      args: ['--data', data, '--root', `codearchitect=${join(CORPUS, 'codearchitect', 'sessions')}`],
      stderr: 'pipe',
    }),
  );
  try {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 10);
  } finally {
    await client.close();
  }
});
