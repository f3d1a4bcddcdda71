/**
 * Makes the bundled MCP server visible to agents in VS Code (Copilot agent mode) with no configuration: it runs on
 * VS Code's own runtime (`process.execPath` with ELECTRON_RUN_AS_NODE), so no separate Node.js install is needed.
 */
import * as vscode from 'vscode';
import { serverSettings } from './settings.js';
import { mcpLaunchArgs } from '../mcp/launch.js';

export const MCP_PROVIDER_ID = 'sessionSearch.mcp';

/** The bundled MCP server (dist/mcp.js). */
export function mcpServerPath(context: vscode.ExtensionContext): string {
  return vscode.Uri.joinPath(context.extensionUri, 'dist', 'mcp.js').fsPath;
}

function mcpServerArgs(context: vscode.ExtensionContext, dataFolder: string | undefined): string[] {
  return mcpLaunchArgs(mcpServerPath(context), dataFolder ? ['--data', dataFolder] : []);
}

export function mcpProvider(
  context: vscode.ExtensionContext,
  dataFolder: () => string | undefined,
  changed: vscode.EventEmitter<void>,
): vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> {
  return {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => [
      new vscode.McpStdioServerDefinition(
        'Session Search',
        process.execPath,
        mcpServerArgs(context, dataFolder()),
        { ELECTRON_RUN_AS_NODE: '1', SESSION_SEARCH_SOURCES: editorSources(), ...teamEnv(), ...embedEnv() },
        String((context.extension.packageJSON as { version?: string }).version ?? '0.0.0'),
      ),
    ],
  };
}

/** The editor's per-source settings, so agents search the same folders as the Sessions view. */
function editorSources(): string {
  const { sources, workspaceFolders } = serverSettings();
  return JSON.stringify({ sources, workspaceFolders });
}

/** The team archive of the user settings: agents search it too. */
function teamEnv(): Record<string, string> {
  const team = serverSettings().team;
  if (!team) return {};
  return { SESSION_SEARCH_TEAM_DB: team.url, ...(team.machine ? { SESSION_SEARCH_MACHINE: team.machine } : {}) };
}

/** The user's own embedding model of the user settings: agents' searches rank with it too. */
function embedEnv(): Record<string, string> {
  const embed = serverSettings().embed;
  if (!embed) return {};
  const env: Record<string, string> = {};
  if (embed.endpoint) env.SESSION_SEARCH_EMBED_ENDPOINT = embed.endpoint;
  if (embed.model) env.SESSION_SEARCH_EMBED_MODEL = embed.model;
  if (embed.folder) env.SESSION_SEARCH_EMBED_FOLDER = embed.folder;
  if (embed.allowRemote) env.SESSION_SEARCH_EMBED_ALLOW_REMOTE = '1';
  if (embed.weight !== undefined) env.SESSION_SEARCH_EMBED_WEIGHT = String(embed.weight);
  return env;
}

export function registerMcpProvider(
  provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>,
  changed: vscode.EventEmitter<void>,
): vscode.Disposable {
  const settings = vscode.workspace.onDidChangeConfiguration((e) => {
    if (
      e.affectsConfiguration('sessionSearch.dataFolder') ||
      e.affectsConfiguration('sessionSearch.sources') ||
      e.affectsConfiguration('sessionSearch.team') ||
      e.affectsConfiguration('sessionSearch.semantic')
    )
      changed.fire();
  });
  // Trusting the workspace adds its SpecStory and Aider histories to what agents search.
  const trusted = vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire());
  return vscode.Disposable.from(vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider), changed, settings, trusted);
}
