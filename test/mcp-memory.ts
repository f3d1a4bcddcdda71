/** The MCP server over a library of a few sessions, through a real client connected in memory (tests share it). */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createLibrary } from '../src/core/library.js';
import { MemoryLogger } from '../src/core/log.js';
import { inProcess } from '../src/engine/api.js';
import { createServer } from '../src/mcp/server.js';
import { writeCodeArchitect, writeFile } from './helpers.js';

export type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text: string }[] };

/** The Claude Code session both MCP test files search: one person's message, then what follows it. */
export const CLAUDE_SESSION = { sessionId: '11111111-2222-4333-8444-555555555555', cwd: '/w' };

/**
 * Writes two CodeArchitect sessions under `<dir>/ca` (an authentication decision, and a note naming it in passing) and a
 * Claude Code session under `<dir>/claude` from `claudeRecords`, then serves them: the connected client and `call`.
 */
export async function serveInMemory(
  dir: string,
  claudeRecords: Record<string, unknown>[],
): Promise<{ client: Client; storeRoot: string; call: (name: string, args: Record<string, unknown>) => Promise<ToolResult> }> {
  const storeRoot = join(dir, 'ca');
  writeCodeArchitect(storeRoot, '2025-11-18', 'authentication-implementation', [
    { role: 'user', content: 'How should we add login? We decided to use PostgreSQL instead of MongoDB.' },
    { role: 'assistant', content: 'Use NextAuth.js with secure session cookies.' },
  ]);
  writeCodeArchitect(storeRoot, '2025-11-19', 'notes', [{ role: 'user', content: 'authentication comes up in passing here' }]);
  writeFile(
    join(dir, 'claude', 'w', `${CLAUDE_SESSION.sessionId}.jsonl`),
    claudeRecords.map((r) => `${JSON.stringify({ ...CLAUDE_SESSION, ...r })}\n`).join(''),
  );
  const library = createLibrary({
    roots: [
      { source: 'codearchitect', path: storeRoot },
      { source: 'claude-code', path: join(dir, 'claude') },
    ],
    logger: new MemoryLogger(),
    env: {},
  });
  const server = createServer(library.load().then(() => inProcess(library)));
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  return { client, storeRoot, call: (name, args) => client.callTool({ name, arguments: args }) as Promise<ToolResult> };
}
