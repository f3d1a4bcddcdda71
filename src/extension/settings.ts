/** Reads the sessionSearch.* settings into what the engine (or a window's own index server) and the MCP server need. */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { SOURCE_IDS } from '../core/model.js';
import type { ServerSettings } from '../protocol.js';

export function dataFolder(): string {
  const configured = vscode.workspace.getConfiguration('sessionSearch').get<string>('dataFolder');
  return configured || process.env.SESSION_SEARCH_HOME || join(homedir(), '.session-search');
}

/**
 * The workspace folders whose SpecStory and Aider histories are read: only a trusted workspace's. In Restricted Mode
 * the user's own agent histories (home folder, editors' storage) are still read: they are not workspace content.
 */
export function workspaceFoldersToRead(): string[] {
  return vscode.workspace.isTrusted ? (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath) : [];
}

/** What the Sessions view says in Restricted Mode when the workspace holds histories that are not read. */
export function restrictedNote(): string | undefined {
  if (vscode.workspace.isTrusted) return undefined;
  const held = (vscode.workspace.workspaceFolders ?? []).some(
    (f) => existsSync(join(f.uri.fsPath, '.specstory')) || existsSync(join(f.uri.fsPath, '.aider.chat.history.md')),
  );
  return held ? 'Restricted Mode: SpecStory and Aider histories inside this workspace are read once you trust it.' : undefined;
}

export function serverSettings(): ServerSettings {
  const config = vscode.workspace.getConfiguration('sessionSearch');
  return {
    sources: SOURCE_IDS.map((id) => ({
      id,
      enabled: config.get<boolean>(`sources.${id}.enabled`, true) !== false,
      folders: config.get<string[]>(`sources.${id}.folders`, []),
    })),
    workspaceFolders: workspaceFoldersToRead(),
    dataDir: dataFolder(),
    archive: config.get<boolean>('archive.enabled', true),
    workspaceSymbols: config.get<boolean>('workspaceSymbols.enabled', false),
    exclude: config.get<string[]>('exclude', []),
    maxFileBytes: Math.max(1, config.get<number>('maxFileSizeMB', 512)) * 1024 * 1024,
    ...teamSettings(config),
    ...embedSettings(config),
  };
}

/**
 * The user's own embedding model, from user settings only (a workspace must not choose where transcripts are sent, nor a
 * model file to run): sessionSearch.semantic.endpoint with .model, or .folder; .allowRemoteEndpoint lets the endpoint be
 * another host.
 */
function embedSettings(config: vscode.WorkspaceConfiguration): Pick<ServerSettings, 'embed'> {
  const user = <T>(key: string): T | undefined => config.inspect<T>(`semantic.${key}`)?.globalValue;
  const endpoint = user<string>('endpoint')?.trim();
  const folder = user<string>('folder')?.trim();
  if (!endpoint && !folder) return {};
  return {
    embed: {
      endpoint: endpoint || undefined,
      model: user<string>('model')?.trim() || undefined,
      folder: endpoint ? undefined : folder,
      allowRemote: user<boolean>('allowRemoteEndpoint') === true,
      weight: user<number>('weight'),
    },
  };
}

/** The team archive, from user settings only (a workspace must not send sessions to a database of its choosing). */
function teamSettings(config: vscode.WorkspaceConfiguration): Pick<ServerSettings, 'team'> {
  const url = config.inspect<string>('team.database')?.globalValue?.trim() || process.env.SESSION_SEARCH_TEAM_DB?.trim();
  if (!url) return {};
  const machine = config.inspect<string>('team.machine')?.globalValue?.trim();
  return { team: { url, machine: machine || undefined, projects: config.inspect<string[]>('team.projects')?.globalValue ?? [] } };
}
