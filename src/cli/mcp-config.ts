/** `session-search mcp-config`: the exact lines that register this install's MCP server with Claude Code. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceRoot } from '../core/ingest/sources/registry.js';
import { mcpLaunchArgs } from '../mcp/launch.js';

export function mcpConfig(bundleUrl: string, roots: SourceRoot[] | undefined, nodePath: string): string {
  const server = join(dirname(fileURLToPath(bundleUrl)), 'mcp.js');
  const args = mcpLaunchArgs(
    server,
    (roots ?? []).flatMap((r) => ['--root', `${r.source}=${r.path}`]),
  );
  const quote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const json = JSON.stringify({ mcpServers: { 'session-search': { type: 'stdio', command: nodePath, args } } }, null, 2);
  return [
    '# Claude Code, for every project (user scope):',
    `claude mcp add -s user session-search -- ${[nodePath, ...args].map(quote).join(' ')}`,
    '',
    '# or a project .mcp.json:',
    json,
    '',
  ].join('\n');
}
