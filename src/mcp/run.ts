/** Runs the MCP server on stdio. stdout carries protocol messages only; logs go to stderr. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SessionLibrary } from '../core/library.js';
import { stderrLogger } from '../core/log.js';
import type { SourceRoot } from '../core/sources/registry.js';
import { createServer } from './server.js';

export async function runStdioServer(options: { roots: SourceRoot[]; dataDir: string; verbose: boolean }): Promise<void> {
  const logger = stderrLogger(options.verbose);
  const library = new SessionLibrary({ roots: options.roots, logger });
  const ready = library.load().then(
    () => library,
    (err: unknown) => {
      logger.error(`loading sessions failed: ${err instanceof Error ? err.message : String(err)}`);
      return library;
    },
  );
  const server = createServer(ready);
  await server.connect(new StdioServerTransport());
}
