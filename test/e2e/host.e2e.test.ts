/**
 * Tests that run inside the real extension host (host-tests.ts, bundled here and loaded as extensionTestsPath) in a
 * window left in Restricted Mode, where the Copilot tools and the MCP provider must work.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { eventually } from '../eventually.js';
import { ROOT, tempDir } from '../helpers.js';
import { openWorkbench, setupE2e } from './workbench.js';

describe('inside the extension host', () => {
  test('the Copilot tools answer through vscode.lm.invokeTool and the MCP provider gives a definition', async () => {
    setupE2e();
    const runner = join(tempDir('sshost-'), 'host-tests.cjs');
    const built = spawnSync(
      'npx',
      ['esbuild', join(ROOT, 'test', 'e2e', 'host-tests.ts'), '--bundle', '--platform=node', '--format=cjs', '--external:vscode', `--outfile=${runner}`],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.equal(built.status, 0, built.stderr);
    let exitCode: number | undefined;
    // The extension-host tests run as the window opens; the window stays in Restricted Mode, where the tools must work.
    const host = await openWorkbench({ developmentPath: ROOT, testsPath: runner, onTestsExit: (code) => (exitCode = code), trust: 'restricted' });
    try {
      await eventually(() => exitCode !== undefined, 'the extension-host tests finish', { timeoutMs: 150_000, intervalMs: 250 }).catch(() => undefined);
      if (exitCode !== 0) await host.failed('extension-host-tests');
      assert.equal(exitCode, 0, 'the extension-host tests passed (on failure the logs are kept in test-results/logs/extension-host-tests/)');
    } finally {
      await host.close();
    }
  });
});
