/** Runs the MCP server on stdio. stdout carries protocol messages only; logs go to stderr. */
import { errorMessage } from '../core/errors.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createLibrary } from '../core/library.js';
import { stderrLogger } from '../core/log.js';
import type { SourceRoot } from '../core/ingest/sources/registry.js';
import { createServer } from './server.js';
import { LiveUpdates } from '../core/ingest/live.js';

export async function runStdioServer(options: {
  roots: SourceRoot[];
  dataDir: string;
  archive: boolean;
  verbose: boolean;
  /** The team database's URL (--db or SESSION_SEARCH_TEAM_DB): searches answer over both archives. */
  teamDb?: string;
  machine?: string;
}): Promise<void> {
  const logger = stderrLogger(options.verbose);
  const library = createLibrary({ roots: options.roots, logger, dataDir: options.dataDir, archive: options.archive });
  const live = new LiveUpdates(library, { logger });
  const loaded = library.load().then(
    () => {
      // From here on, sessions written while the server runs become searchable as they are written.
      live.start().catch((err: unknown) => logger.warn(`watching for changes failed: ${errorMessage(err)}`));
    },
    (err: unknown) => logger.error(`loading sessions failed: ${errorMessage(err)}`),
  );
  // Tools answer from the snapshot at once; what changed since it was written is read behind them.
  const ready = library.ready().then(() => library);
  // the PostgreSQL driver is loaded only when a team database is configured
  const teamModule = options.teamDb ? await import('../core/team/archive.js') : undefined;
  const team = options.teamDb && teamModule ? new teamModule.TeamArchive(options.teamDb, teamModule.machineName(options.machine, process.env)) : undefined;
  const server = createServer(ready, { team });
  const transport = new StdioServerTransport();
  let closing: Promise<void> | undefined;
  // Closing writes the snapshot (if something changed) and frees the data folder for the next writer.
  const shutdown = (): Promise<void> =>
    (closing ??= loaded
      .then(() => live.close())
      .then(() => team?.close())
      .then(() => library.close()));
  transport.onclose = () => void shutdown();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void shutdown().finally(() => process.exit(0)));
  process.stdin.once('end', () => void shutdown());
  await server.connect(transport);
}
