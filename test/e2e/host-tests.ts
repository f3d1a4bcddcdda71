/**
 * Runs inside the real extension host (bundled by the e2e test and loaded as extensionTestsPath): the Copilot tool
 * answers through vscode.lm.invokeTool, Export Session… writes a safe page, and the MCP provider gives a definition
 * that starts the bundled server.
 */
import { eventually } from '../eventually.js';
import { tmpdir } from 'node:os';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import claudeAiExport from '../fixtures/claude-ai/conversations.json';
import { SOURCE_IDS } from '../../src/core/model.js';
import * as vscode from 'vscode';
import type { SessionSearchApi } from '../../src/extension/extension.js';

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

async function toolText(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

export async function run(): Promise<void> {
  const extension = vscode.extensions.all.find((e) => e.packageJSON?.name === 'session-search');
  check(!!extension, 'the Session Search extension is installed');
  const api = (await extension!.activate()) as SessionSearchApi;

  let found = '';
  await eventually(
    async () => (found = await toolText('session_search', { query: 'MockRepoMap max_map_tokens', limit: 3 })).includes('python'),
    'session_search finds the python session',
    { timeoutMs: 90_000, intervalMs: 500 },
  ).catch(() => undefined);
  check(found.includes('python') && found.includes('codearchitect:2024-08-06/python'), `session_search answered: ${found.slice(0, 300)}`);
  const read = await toolText('session_read', { docid: 'codearchitect:2024-08-06/python#1' });
  check(read.includes('MockRepoMap') || read.includes('platform darwin'), `session_read answered: ${read.slice(0, 200)}`);

  // A secret planted in a transcript (test/e2e/workbench.ts) never reaches a language model through the tools.
  const token = /gh[pousr]_[A-Za-z0-9]{36}|zebrapass42/;
  const hostile = await toolText('session_search', { query: 'zebrahostile deploy', limit: 3 });
  check(
    hostile.includes('zebrahostile') && hostile.includes('[redacted-secret]') && !token.test(hostile),
    `session_search masks the planted secret: ${hostile.slice(0, 300)}`,
  );
  const hostileId = 'claude-code:66666666-6666-4666-8666-666666666666';
  check(hostile.includes(hostileId), 'session_search finds the hostile session');
  const whole = await toolText('session_read', { docid: hostileId });
  check(whole.includes('zebrahostile') && !token.test(whole), `session_read of ${hostileId} masks the planted secret`);
  const session = await toolText('session_get', { id: hostileId });
  check(session.includes('zebrahostile') && !token.test(session), 'session_get masks the planted secret');

  // Export Session… (the tree's and the reader's command), with its questions answered: a safe, masked HTML page
  const target = vscode.Uri.joinPath(vscode.Uri.file(tmpdir()), `session-search-export-${process.pid}.html`);
  await vscode.commands.executeCommand('sessionSearch.exportSession', hostileId, { format: 'html', uri: target });
  const page = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
  check(page.includes('zebrahostile') && page.includes('<details'), `the export holds the session: ${page.slice(0, 200)}`);
  check(page.includes('&lt;script&gt;') && !/<script|<img/i.test(page), 'markup in the exported page stays text');
  check(!token.test(page) && page.includes('[redacted-secret]'), 'the exported page is masked');

  // Export Results… (the panel's button): the results of a query as a Markdown list
  const list = vscode.Uri.joinPath(vscode.Uri.file(tmpdir()), `session-search-results-${process.pid}.md`);
  await vscode.commands.executeCommand('sessionSearch.exportResults', 'zebrahostile deploy', {}, { format: 'md', uri: list });
  const listed = new TextDecoder().decode(await vscode.workspace.fs.readFile(list));
  check(
    listed.startsWith('# Sessions for "zebrahostile deploy"') && listed.includes(hostileId),
    `the results export lists the session: ${listed.slice(0, 300)}`,
  );
  check(!token.test(listed), 'the results export is masked');

  // Add Tag… (the tree's context menu) on a session, then a tag filter finds it and only it; Remove Tag… takes it away
  const tagged = await vscode.commands.executeCommand<{ tags: string[] } | undefined>('sessionSearch.addTag', hostileId, 'Reviewed Later, zebra-keep');
  check(tagged?.tags.join() === 'reviewed-later,zebra-keep', `the tags are given: ${JSON.stringify(tagged)}`);
  const byTag = await toolText('session_search', { query: 'deploy', tags: ['zebra-keep'], limit: 5 });
  check(byTag.includes(hostileId) && !byTag.includes('codearchitect:'), `the tag filter finds the tagged session only: ${byTag.slice(0, 300)}`);
  await vscode.commands.executeCommand('sessionSearch.groupByTag');
  const untagged = await vscode.commands.executeCommand<{ tags: string[] } | undefined>('sessionSearch.removeTag', hostileId, ['zebra-keep']);
  check(untagged?.tags.join() === 'reviewed-later', `the tag is removed: ${JSON.stringify(untagged)}`);
  const none = await toolText('session_search', { query: 'deploy', tags: ['zebra-keep'], limit: 5 });
  check(!none.includes(hostileId), 'a removed tag no longer finds the session');
  await vscode.commands.executeCommand('sessionSearch.groupByDate');

  // #preferences: what the sessions show about how the developer works, with the sessions it rests on
  const prefs = await toolText('session_preferences', {});
  check(/extractedFrom/.test(prefs) && /preferences/.test(prefs), `session_preferences answers: ${prefs.slice(0, 300)}`);

  // the sessions behind a workspace file (named relative to the workspace, as an agent names it), and who wrote line 3
  const history = await toolText('session_file_history', { path: 'src/retry.ts', lines: '3' });
  check(
    history.includes('make the retry loop back off') && history.includes('add a retry helper for flaky requests'),
    `session_file_history lists both sessions: ${history.slice(0, 400)}`,
  );
  check(history.includes('claude-code:88888888-8888-4888-8888-888888888882#1'), `line 3 is the back-off edit's: ${history.slice(0, 600)}`);

  // Import an Export…: a Claude.ai export is read, and the Copilot tool finds its conversation
  const exportDir = mkdtempSync(join(tmpdir(), 'session-search-import-'));
  const exportFile = join(exportDir, 'conversations.json');
  writeFileSync(exportFile, JSON.stringify(claudeAiExport));
  const imported = await vscode.commands.executeCommand<{ added: unknown[]; sessions: number } | undefined>('sessionSearch.importExport', exportFile);
  check(imported?.added.length === 1 && imported.sessions === 1, `the export is imported: ${JSON.stringify(imported)}`);
  const fromExport = await toolText('session_search', { query: 'weekStart Monday date test', limit: 3 });
  check(fromExport.includes('claude-ai:0d9e8f7a-6b5c-4d3e-8f1a-2b3c4d5e6f70'), `the imported conversation is found: ${fromExport.slice(0, 300)}`);

  const definitions = (await api.mcpServerDefinitions()) ?? [];
  check(definitions.length === 1, `one MCP server definition, got ${definitions.length}`);
  const [mcp] = definitions;
  check(mcp.label === 'Session Search', `label ${mcp.label}`);
  check(
    mcp.command === process.execPath && mcp.args[0] === '--max-semi-space-size=1' && mcp.args[1].endsWith('mcp.js'),
    `command ${mcp.command} ${mcp.args.join(' ')}`,
  );
  check(mcp.env.ELECTRON_RUN_AS_NODE === '1', 'runs on the editor runtime');
  const sources = JSON.parse(String(mcp.env.SESSION_SEARCH_SOURCES)) as { sources: { id: string; enabled: boolean }[] };
  check(sources.sources.length === SOURCE_IDS.length && sources.sources.every((s) => s.enabled), 'the per-source settings reach the MCP server');
}
