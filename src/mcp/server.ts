/** createServer: the MCP server over one Engine (the resident engine, or a library in process), transport-agnostic (stdio in production, in-memory in tests). */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Engine } from '../engine/api.js';
import { registerGetSession } from './tools/get-session.js';
import { registerReadSession } from './tools/read-session.js';
import { registerSearchContext } from './tools/search-context.js';
import { registerSearchSession } from './tools/search-session.js';
import { registerStoreSession } from './tools/store-session.js';
import { registerTagSession } from './tools/tag-session.js';
import { registerGetPreferences } from './tools/get-preferences.js';
import { registerUpdatePreferences } from './tools/update-preferences.js';
import { registerUntagSession } from './tools/untag-session.js';
import { registerFileHistory } from './tools/file-history.js';
import { inFolder } from './in-folder.js';
import { SERVER_INSTRUCTIONS, SERVER_NAME, SERVER_VERSION } from './agent-lines.js';

export { SERVER_NAME, SERVER_VERSION };

/**
 * `ready` resolves to the answers (the engine, or a library in this process) once they can be given; tools wait for it,
 * so the server can connect at once. With a team archive, search_session and search_context answer over both, and
 * get_session and read_session read team sessions by their ids. `cwd`: the agent's working folder, against which a
 * relative path in a tool's arguments is read (this process's own by default; the relay's, served in the engine).
 */
export function createServer(engine: Promise<Engine>, options: { cwd?: string } = {}): McpServer {
  const ready = engine.then((e) => inFolder(e, options.cwd ?? process.cwd()));
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: SERVER_INSTRUCTIONS });
  registerSearchSession(server, ready);
  registerGetSession(server, ready);
  registerReadSession(server, ready);
  registerSearchContext(server, ready);
  registerStoreSession(server, ready);
  registerTagSession(server, ready);
  registerUntagSession(server, ready);
  registerGetPreferences(server, ready);
  registerUpdatePreferences(server, ready);
  registerFileHistory(server, ready);
  return server;
}
