/**
 * Where the window's answers come from. The extension host speaks to the data folder's engine itself, over its socket
 * (engine/window-link.ts: started if none runs, started again by the next request after a crash), so a window adds no
 * process of its own. Only where no engine can serve the window (another configuration of sources,
 * SESSION_SEARCH_ENGINE=off, no socket possible) does it start an index server in its own process (dist/server.cjs,
 * through vscode-languageclient, which restarts it after a crash), and say why in the log. Both speak src/protocol.ts.
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import { withAllocatorEnv } from '../core/allocator.js';
import { errorMessage } from '../core/errors.js';
import { engineEntry, type RemoteEngine } from '../engine/client.js';
import { openWindowLink, WINDOW_NOTIFICATIONS } from '../engine/window-link.js';
import { EngineAboutRequest, type EngineAbout } from '../engine/protocol.js';
import { IndexProgressNotification, TitlesRequest, type IndexProgress, type TitleMatch } from '../protocol.js';
import { sessionUri } from './reader.js';
import { serverSettings } from './settings.js';

type Backend = { engine: RemoteEngine } | { server: LanguageClient };

export class IndexClient implements vscode.Disposable {
  private backend: Promise<Backend> | undefined;
  private readonly handlers = new Map<string, Set<(params: unknown) => void>>();
  private symbols: vscode.Disposable | undefined;
  /** Why this window runs an index server of its own (no engine could serve it). */
  private ownProcess: string | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    onProgress: (p: IndexProgress) => void,
  ) {
    this.onNotification(IndexProgressNotification, onProgress);
  }

  /** Connects (with the settings as they are now: a restart after the workspace is trusted sends them again). */
  start(): Promise<void> {
    this.backend ??= this.connect();
    return this.backend.then(() => undefined);
  }

  async stop(): Promise<void> {
    const backend = this.backend;
    this.backend = undefined;
    this.symbols?.dispose();
    this.symbols = undefined;
    const b = await backend?.catch(() => undefined);
    if (!b) return;
    if ('engine' in b) await b.engine.close();
    else await b.server.stop();
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  dispose(): void {
    void this.stop();
  }

  sendRequest<R>(type: RequestType0<R, unknown>): Promise<R>;
  sendRequest<P, R>(type: RequestType<P, R, unknown>, params: P): Promise<R>;
  async sendRequest(type: RequestType0<unknown, unknown> | RequestType<unknown, unknown, unknown>, params?: unknown): Promise<unknown> {
    const b = await (this.backend ?? Promise.reject(new Error('Session Search has not started')));
    if ('engine' in b) return b.engine.request(type.method, params);
    return params === undefined
      ? b.server.sendRequest(type as RequestType0<unknown, unknown>)
      : b.server.sendRequest(type as RequestType<unknown, unknown, unknown>, params);
  }

  /** The data folder's engine as it is now (Show Engine Status), or why this window runs an index server of its own. */
  async about(): Promise<{ engine: EngineAbout } | { ownProcess: string }> {
    const b = await (this.backend ?? Promise.reject(new Error('Session Search has not started')));
    if ('server' in b) return { ownProcess: this.ownProcess ?? 'no engine can serve this window' };
    return { engine: (await b.engine.request(EngineAboutRequest.method, undefined)) as EngineAbout };
  }

  /** A notification of src/protocol.ts, from whichever answers (and from the next engine after a restart). */
  onNotification<P>(type: NotificationType<P>, handler: (params: P) => void): vscode.Disposable {
    const set = this.handlers.get(type.method) ?? new Set();
    this.handlers.set(type.method, set);
    const h = handler as (params: unknown) => void;
    set.add(h);
    return new vscode.Disposable(() => set.delete(h));
  }

  private notify(method: string, params: unknown): void {
    for (const h of this.handlers.get(method) ?? []) {
      try {
        h(params);
      } catch (err) {
        this.log.error(`${method}: ${errorMessage(err)}`);
      }
    }
  }

  private async connect(): Promise<Backend> {
    const settings = serverSettings();
    const opened = await openWindowLink(settings, {
      entry: engineEntry(),
      // the extension host's executable runs the engine as Node (VS Code's own is Electron)
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      logger: this.log,
      notify: (method, params) => this.notify(method, params),
    }).catch((err: unknown) => ({ reason: `the engine did not answer (${errorMessage(err)})` }));
    if ('engine' in opened) {
      if (settings.workspaceSymbols) this.symbols = vscode.languages.registerWorkspaceSymbolProvider({ provideWorkspaceSymbols: (q) => this.titles(q) });
      return opened;
    }
    this.log.info(`the data folder's engine cannot serve this window (${opened.reason}): starting an index server of its own`);
    this.ownProcess = opened.reason;
    const server = indexServer(this.context, this.log, opened.reason);
    for (const method of WINDOW_NOTIFICATIONS) server.onNotification(method, (params: unknown) => this.notify(method, params));
    await server.start();
    return { server };
  }

  /** Go to Symbol in Workspace: the titles of sessions (sessionSearch.workspaceSymbols.enabled). */
  private async titles(query: string): Promise<vscode.SymbolInformation[]> {
    if (!query.trim()) return [];
    const titles = await this.sendRequest(TitlesRequest, { query, limit: 50 });
    return titles.map(
      (s: TitleMatch) =>
        new vscode.SymbolInformation(
          s.topic,
          vscode.SymbolKind.Event,
          `${s.source} · ${s.created.slice(0, 10)}`,
          new vscode.Location(sessionUri(s.id, s.topic), new vscode.Position(0, 0)),
        ),
    );
  }
}

/** The index server of this window alone (it answers from a library of its own, and says why). */
function indexServer(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, reason: string): LanguageClient {
  const module = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.cjs').fsPath;
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { env: withAllocatorEnv(process.env) } },
    debug: { module, transport: TransportKind.ipc, options: { env: withAllocatorEnv(process.env) } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [],
    outputChannel: log,
    initializationOptions: () => ({ ...serverSettings(), ownProcess: reason }),
    initializationFailedHandler: (error) => {
      log.error(`the index server failed to start: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage('Session Search: the index server failed to start. See Session Search: Show Log.');
      return false;
    },
  };
  return new LanguageClient('sessionSearch', 'Session Search', serverOptions, clientOptions);
}
