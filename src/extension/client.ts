/** Starts the index server in its own process and restarts it after a crash (vscode-languageclient does both). */
import { errorMessage } from '../core/errors.js';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { IndexProgressNotification, type IndexProgress } from '../protocol.js';
import { serverSettings } from './settings.js';

export function startIndexServer(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, onProgress: (p: IndexProgress) => void): LanguageClient {
  const module = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.cjs').fsPath;
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [],
    outputChannel: log,
    // A function, so a restart (after the workspace is trusted) sends the settings as they are then.
    initializationOptions: () => serverSettings(),
    initializationFailedHandler: (error) => {
      log.error(`the index server failed to start: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage('Session Search: the index server failed to start. See Session Search: Show Log.');
      return false;
    },
  };
  const client = new LanguageClient('sessionSearch', 'Session Search', serverOptions, clientOptions);
  client.onNotification(IndexProgressNotification, onProgress);
  return client;
}
