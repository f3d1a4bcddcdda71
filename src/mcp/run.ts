/**
 * Runs the MCP server on stdio. stdout carries protocol messages only; logs go to stderr. Where the data folder's
 * resident engine serves (started if none runs), the engine runs the MCP server and this process relays to it
 * (relay.ts); where none can, the MCP server and a library run in this process, which then owns the live updates and
 * the shutdown order itself.
 */
import { errorMessage } from '../core/errors.js';
import { stderrLogger, type Logger } from '../core/log.js';
import type { SourceRoot } from '../core/ingest/sources/registry.js';
import { inProcess, type Engine } from '../engine/api.js';
import { engineEntry, openEngine } from '../engine/client.js';
import { relayToEngine } from './relay.js';
import { AgentLines } from './agent-lines.js';
import { ENGINE_VERSION } from '../version.js';
import type { EmbedConfig } from '../core/embed/config.js';

export interface StdioOptions {
  roots: SourceRoot[];
  dataDir: string;
  archive: boolean;
  exclude?: string[];
  maxFileBytes?: number;
  verbose: boolean;
  /** The team database's URL (--db or SESSION_SEARCH_TEAM_DB): searches answer over both archives. */
  teamDb?: string;
  machine?: string;
  /** The user's own embedding model (--embed-*, SESSION_SEARCH_EMBED_*). */
  embed?: EmbedConfig;
  /** The agent's lines, read since the process started (stdio.ts); stdin's otherwise. */
  agent?: AgentLines;
  write?: (line: string) => void;
}

/** A library in this process, loading and then watching; answers from the snapshot at once. */
async function libraryHere(options: StdioOptions, logger: Logger, reason: string): Promise<Engine> {
  logger.info(`answering in this process: ${reason}`);
  const { roots, dataDir, archive, exclude, maxFileBytes, embed } = options;
  // (the library and its watchers load only when this server answers in process: an engine's client never reads them)
  const { createLibrary } = await import('../core/library.js');
  // from the end of its load on, sessions written while the server runs become searchable as they are written; a
  // configured team database is searched beside the local archive (its driver loaded only then)
  const team = options.teamDb ? { url: options.teamDb, machine: options.machine } : undefined;
  const library = createLibrary({ roots, logger, dataDir, archive, exclude, maxFileBytes, embed, team, watch: true });
  library.load().catch((err: unknown) => logger.error(`loading sessions failed: ${errorMessage(err)}`));
  await library.ready();
  // Closing waits for the load, closes the team archive, writes the snapshot (if something changed) and frees the
  // data folder for the next writer: the library's own order.
  return inProcess(library, { reason, close: () => library.close() });
}

export async function runStdioServer(options: StdioOptions): Promise<void> {
  const logger = stderrLogger(options.verbose);
  const team = options.teamDb ? { url: options.teamDb, machine: options.machine } : undefined;
  // the agent's initialize is answered at once; its other messages wait for the engine (or this process's server)
  const write = options.write ?? ((line: string): void => void process.stdout.write(line));
  const agent = options.agent ?? new AgentLines(process.stdin, write);
  const opened = await openEngine({ ...options, watchWorkspace: true, version: ENGINE_VERSION, entry: engineEntry() });
  if (!('reason' in opened)) {
    // the engine runs the MCP server; this process relays the agent's stdio to it
    const { engine } = opened;
    logger.info(`answering from the engine (pid ${engine.where.kind === 'engine' ? engine.where.pid : '?'})`);
    let closing: Promise<void> | undefined;
    const shutdown = (): Promise<void> => (closing ??= engine.close());
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void shutdown().finally(() => process.exit(0)));
    await relayToEngine(engine, team, { agent, write }, logger);
    await shutdown();
    return;
  }
  // no engine can serve: the MCP server and the library run here (the SDK loaded only then)
  const [{ AgentTransport }, { createServer }] = await Promise.all([import('./agent-transport.js'), import('./server.js')]);
  const ready = libraryHere(options, logger, opened.reason);
  // Tools wait for it; the server connects at once.
  const server = createServer(ready);
  const transport = new AgentTransport(agent, write);
  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> => (closing ??= ready.then((engine) => engine.close()));
  transport.onclose = () => void shutdown();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void shutdown().finally(() => process.exit(0)));
  await server.connect(transport);
}
