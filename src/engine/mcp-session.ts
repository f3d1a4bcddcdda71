/**
 * An agent's MCP session, served inside the engine. The MCP server an agent starts is a relay (src/mcp/relay.ts): it
 * passes the agent's stdio to the engine's socket, and the engine answers with the one MCP server there is
 * (src/mcp/server.ts) over the library it holds. The MCP SDK and its schemas are loaded once, here, on the first
 * session, however many agents are connected; each relay holds little more than Node itself.
 */
import { isAbsolute } from 'node:path';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Engine } from './api.js';
import type { TeamRef } from './protocol.js';
import type { Logger } from '../core/log.js';
import { errorMessage } from '../core/errors.js';
import { EngineMcpNotification, EngineMcpOpenRequest } from './protocol.js';

/**
 * Serves the MCP session a relay opens on its connection (`engine/mcpOpen`, then `engine/mcp` either way): one per
 * connection, started afresh when opened again. `engine`: the answers with the team archive the relay named;
 * `active`: told of each message. Closed with the connection.
 */
export function serveMcp(
  connection: MessageConnection,
  engine: (team: TeamRef | undefined) => Promise<Engine>,
  logger: Logger,
  active: () => void,
): { close(): Promise<void> } {
  let session: Promise<McpSession> | undefined;
  const closing = (s: Promise<McpSession> | undefined): Promise<void> => s?.then((open) => open.close()).catch(() => undefined) ?? Promise.resolve();
  connection.onRequest(EngineMcpOpenRequest, async (p) => {
    const before = session;
    // (a folder that is not absolute is not one: the engine's own is used)
    session = openMcpSession(connection, engine(p.team), logger, typeof p.cwd === 'string' && isAbsolute(p.cwd) ? p.cwd : undefined);
    await closing(before);
    await session;
  });
  connection.onNotification(EngineMcpNotification, (p) => {
    active();
    void session?.then((open) => open.receive(p.message)).catch((err: unknown) => logger.error(`an MCP session failed: ${errorMessage(err)}`));
  });
  return { close: () => closing(session) };
}

interface McpSession {
  /** A message the relay passed on from its agent. */
  receive(message: unknown): void;
  close(): Promise<void>;
}

/** Opens an MCP session on a client's connection: its answers go back over it as `engine/mcp` notifications. */
async function openMcpSession(connection: MessageConnection, engine: Promise<Engine>, logger: Logger, cwd: string | undefined): Promise<McpSession> {
  const [{ createServer }, { JSONRPCMessageSchema }] = await Promise.all([import('../mcp/server.js'), import('@modelcontextprotocol/sdk/types.js')]);
  let closed = false;
  const transport: Transport = {
    start: async () => undefined,
    send: async (message) => {
      if (!closed) await connection.sendNotification(EngineMcpNotification, { message });
    },
    close: async () => {
      if (closed) return;
      closed = true;
      transport.onclose?.();
    },
  };
  // (a load that failed fails each tool call that awaits it; until one does, it is no unhandled rejection)
  engine.catch(() => undefined);
  const server = createServer(engine, { cwd });
  await server.connect(transport);
  return {
    receive(message) {
      // (as the SDK's stdio transport does: a message that is not JSON-RPC is reported and skipped)
      const parsed = JSONRPCMessageSchema.safeParse(message);
      if (!parsed.success) return logger.warn(`an agent's MCP message was not JSON-RPC, skipped (${errorMessage(parsed.error)})`);
      transport.onmessage?.(parsed.data);
    },
    close: () => server.close(),
  };
}
