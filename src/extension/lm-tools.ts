/** Copilot language-model tools: search, get, read, preferences and a file's history, answered by the engine (src/extension/client.ts). */
import * as vscode from 'vscode';
import type { IndexClient } from './client.js';
import { errorMessage } from '../core/errors.js';
import { answerText } from '../core/format.js';
import type { SearchOptions } from '../core/contracts.js';
import { FileHistoryRequest, GetRequest, PreferencesRequest, ReadRequest, SearchRequest } from '../protocol.js';
import { isAbsolute, join } from 'node:path';

const text = (value: unknown): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(answerText(value))]);

function tool<T>(client: IndexClient, describe: (input: T) => string, run: (input: T) => Promise<unknown>): vscode.LanguageModelTool<T> {
  return {
    prepareInvocation: (options) => ({ invocationMessage: describe(options.input) }),
    invoke: async (options) => {
      try {
        return text(await run(options.input));
      } catch (err) {
        return text({ success: false, error: errorMessage(err) });
      }
    },
  };
}

export function registerLanguageModelTools(client: IndexClient): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.lm.registerTool(
      'session_search',
      tool<SearchOptions & { query: string }>(
        client,
        (i) => `Searching past sessions for "${i.query}"`,
        (i) => client.sendRequest(SearchRequest, { ...i, limit: Math.min(i.limit ?? 10, 50) }),
      ),
    ),
    vscode.lm.registerTool(
      'session_get',
      tool<{ id: string }>(
        client,
        (i) => `Reading session ${i.id}`,
        (i) => client.sendRequest(GetRequest, { name: i.id, format: 'auto' }),
      ),
    ),
    vscode.lm.registerTool(
      'session_preferences',
      tool<{ project?: string }>(
        client,
        () => "Reading the developer's preferences",
        (i) => client.sendRequest(PreferencesRequest, { project: i.project }),
      ),
    ),
    vscode.lm.registerTool(
      'session_file_history',
      tool<{ path: string; lines?: string; limit?: number }>(
        client,
        (i) => `Looking up the sessions behind ${i.path}${i.lines ? ` (lines ${i.lines})` : ''}`,
        (i) => {
          // a path relative to the workspace, as an agent names files
          const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
          const path = isAbsolute(i.path) || !root ? i.path : join(root, i.path);
          return client.sendRequest(FileHistoryRequest, { path, lines: i.lines, limit: Math.min(i.limit ?? 20, 100) });
        },
      ),
    ),
    vscode.lm.registerTool(
      'session_read',
      tool<{ docid: string; offset?: number }>(
        client,
        (i) => `Reading ${i.docid}`,
        (i) => client.sendRequest(ReadRequest, { docid: i.docid, offset: i.offset ?? 0 }),
      ),
    ),
  );
}
