/** Reads the sessionSearch.* settings into what the index server and the MCP server need. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { SOURCE_IDS } from '../core/model.js';
import type { ServerSettings } from '../protocol.js';

export function dataFolder(): string {
  const configured = vscode.workspace.getConfiguration('sessionSearch').get<string>('dataFolder');
  return configured || process.env.SESSION_SEARCH_HOME || join(homedir(), '.session-search');
}

export function serverSettings(): ServerSettings {
  const config = vscode.workspace.getConfiguration('sessionSearch');
  return {
    sources: SOURCE_IDS.map((id) => ({
      id,
      enabled: config.get<boolean>(`sources.${id}.enabled`, true) !== false,
      folders: config.get<string[]>(`sources.${id}.folders`, []),
    })),
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    dataDir: dataFolder(),
    archive: config.get<boolean>('archive.enabled', true),
    workspaceSymbols: config.get<boolean>('workspaceSymbols.enabled', false),
    exclude: config.get<string[]>('exclude', []),
    maxFileBytes: Math.max(1, config.get<number>('maxFileSizeMB', 512)) * 1024 * 1024,
  };
}
