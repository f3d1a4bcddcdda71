/**
 * The index server: a window's own Node process, started by the extension through vscode-languageclient over IPC only
 * where the data folder's engine cannot serve the window (another configuration of sources, SESSION_SEARCH_ENGINE=off,
 * no socket possible: the extension host says why in `ownProcess`), so that the extension host never parses a
 * transcript. It holds a library of its own (local.ts) and answers the window's requests (src/protocol.ts) with the
 * same code as the engine (engine/window.ts). Where the engine serves, the extension host speaks to it itself
 * (engine/window-link.ts) and this process is never started.
 */
import { createConnection, ProposedFeatures, SymbolKind, type WorkspaceSymbol } from 'vscode-languageserver/node';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { windowMethods } from '../engine/window.js';
import { closeLocal, localAnswers, type Handler } from './local.js';
import { sessionUriString } from '../session-uri.js';
import { TitlesRequest, type ServerSettings, type TitleMatch } from '../protocol.js';

const connection = createConnection(ProposedFeatures.all);
const logger: Logger = {
  info: (m) => connection.console.info(m),
  warn: (m) => connection.console.warn(m),
  error: (m) => connection.console.error(m),
};

let settings: ServerSettings | undefined;
let handlers: Map<string, Handler> | undefined;

async function answer(method: string, params: unknown): Promise<unknown> {
  if (!handlers) throw new Error('the server was not initialised');
  const handler = handlers.get(method);
  if (!handler) throw new Error(`unknown request ${method}`);
  return handler(params);
}

for (const method of windowMethods()) connection.onRequest(method, (params: unknown) => answer(method, params));

connection.onInitialize((params) => {
  settings = params.initializationOptions as ServerSettings;
  return { capabilities: { workspaceSymbolProvider: settings.workspaceSymbols } };
});

connection.onInitialized(() => {
  try {
    logger.info(`answering in this window's own process: ${settings!.ownProcess ?? 'the extension asked for it'}`);
    handlers = localAnswers(connection, settings!, logger);
  } catch (err) {
    logger.error(`starting the index failed: ${errorMessage(err)}`);
  }
});

connection.onWorkspaceSymbol(async ({ query }): Promise<WorkspaceSymbol[]> => {
  if (!query.trim()) return [];
  const titles = (await answer(TitlesRequest.method, { query, limit: 50 })) as TitleMatch[];
  return titles.map((s) => ({
    name: s.topic,
    kind: SymbolKind.Event,
    containerName: `${s.source} · ${s.created.slice(0, 10)}`,
    location: { uri: sessionUriString(s.id, s.topic) },
  }));
});

connection.onShutdown(() => closeLocal());

connection.listen();
