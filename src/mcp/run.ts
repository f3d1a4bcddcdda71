/** Runs the MCP server on stdio. stdout carries protocol messages only; logs go to stderr. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SessionLibrary } from '../core/library.js';
import { stderrLogger } from '../core/log.js';
import type { SourceRoot } from '../core/sources/registry.js';
import { createServer } from './server.js';
import { LiveUpdates } from '../core/live.js';

export async function runStdioServer(options: { roots: SourceRoot[]; dataDir: string; archive: boolean; verbose: boolean }): Promise<void> {
  const logger = stderrLogger(options.verbose);
  const library = new SessionLibrary({ roots: options.roots, logger, dataDir: options.dataDir, archive: options.archive });
  const live = new LiveUpdates(library, { logger });
  const ready = library.load().then(
    () => {
      // From here on, sessions written while the server runs become searchable as they are written.
      live.start().catch((err: unknown) => logger.warn(`watching for changes failed: ${err instanceof Error ? err.message : String(err)}`));
      return library;
    },
    (err: unknown) => {
      logger.error(`loading sessions failed: ${err instanceof Error ? err.message : String(err)}`);
      return library;
    },
  );
  const server = createServer(ready);
  const transport = new StdioServerTransport();
  transport.onclose = () => void live.close();
  await server.connect(transport);
}
