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
  const loaded = library.load().then(
    () => {
      // From here on, sessions written while the server runs become searchable as they are written.
      live.start().catch((err: unknown) => logger.warn(`watching for changes failed: ${err instanceof Error ? err.message : String(err)}`));
    },
    (err: unknown) => logger.error(`loading sessions failed: ${err instanceof Error ? err.message : String(err)}`),
  );
  // Tools answer once the snapshot is restored; files changed since are caught up behind them.
  const ready = Promise.race([library.answerable, loaded]).then(() => library);
  const server = createServer(ready);
  const transport = new StdioServerTransport();
  transport.onclose = () => void live.close().then(() => library.close());
  await server.connect(transport);
}
