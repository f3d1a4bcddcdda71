/**
 * Where each source keeps its transcripts unless told otherwise, in one table apart from the parsers: every client
 * (the CLI, a window, an MCP server) works out its roots at start, and this module loads in a few milliseconds where
 * the adapters and their parsing libraries take tens. Each adapter's `defaultRoots` is its line of this table.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';
import { SOURCE_IDS, type SourceId } from '../../model.js';
import { dataHome, editorUserDirs, homeDir, VSCODE_PRODUCTS } from './locations.js';

export interface SourceRoot {
  source: SourceId;
  path: string;
}

/** The editor extensions whose task folders Cline and Roo Code (with its Kilo Code fork) write. */
export const TASK_EXTENSIONS = { cline: ['saoudrizwan.claude-dev'], roo: ['rooveterinaryinc.roo-cline', 'kilocode.kilo-code'] } as const;

export function codeArchitectDefaultRoot(env: NodeJS.ProcessEnv): string {
  return join(homeDir(env), '.codearchitect', 'sessions');
}

function codexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME ?? join(homeDir(env), '.codex');
}

function claudeRoots(env: NodeJS.ProcessEnv): string[] {
  if (env.CLAUDE_CONFIG_DIR) {
    return env.CLAUDE_CONFIG_DIR.split(',')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => join(d, 'projects'));
  }
  const home = homeDir(env);
  const roots = [join(home, '.claude', 'projects')];
  const xdg = join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'claude', 'projects');
  if (existsSync(xdg)) roots.push(xdg);
  return roots;
}

/** The data folders of the projects Crush lists in its `projects.json`. */
function crushProjects(env: NodeJS.ProcessEnv): string[] {
  const registry = join(env.CRUSH_GLOBAL_DATA ?? join(dataHome(env), 'crush'), 'projects.json');
  try {
    const parsed: unknown = JSON.parse(readFileSync(registry, 'utf8'));
    const projects = (parsed as { projects?: unknown } | null)?.projects;
    if (!Array.isArray(projects)) return [];
    return projects.map((p: unknown) => (p as { data_dir?: unknown } | null)?.data_dir).filter((d): d is string => typeof d === 'string' && d !== '');
  } catch {
    return [];
  }
}

const editorStorage = (env: NodeJS.ProcessEnv, products: string[]): string[] =>
  editorUserDirs(env, products).flatMap((u) => [join(u, 'workspaceStorage'), join(u, 'globalStorage')]);
const taskFolders = (env: NodeJS.ProcessEnv, extensions: readonly string[]): string[] =>
  editorUserDirs(env, [...VSCODE_PRODUCTS, 'Cursor']).flatMap((u) => extensions.map((e) => join(u, 'globalStorage', e)));

export const DEFAULT_ROOTS: Readonly<Record<SourceId, (env: NodeJS.ProcessEnv) => string[]>> = {
  codearchitect: (env) => [codeArchitectDefaultRoot(env)],
  'claude-code': claudeRoots,
  codex: (env) => [join(codexHome(env), 'sessions'), join(codexHome(env), 'archived_sessions')],
  'copilot-chat': (env) => editorStorage(env, VSCODE_PRODUCTS),
  gemini: (env) => [join(env.GEMINI_CLI_HOME ?? homeDir(env), '.gemini', 'tmp')],
  cursor: (env) => editorStorage(env, ['Cursor']),
  cline: (env) => taskFolders(env, TASK_EXTENSIONS.cline),
  roo: (env) => taskFolders(env, TASK_EXTENSIONS.roo),
  opencode: (env) => (env.OPENCODE_DB ? [dirname(env.OPENCODE_DB)] : [join(dataHome(env), 'opencode')]),
  specstory: (env) => workspaceFolders([process.cwd()], env),
  aider: (env) => workspaceFolders([process.cwd()], env),
  'copilot-cli': (env) => [join(env.COPILOT_HOME ?? join(homeDir(env), '.copilot'), 'session-state')],
  amp(env) {
    if (env.AMP_DATA_DIR) return [join(env.AMP_DATA_DIR, 'threads')];
    const xdg = join(env.XDG_DATA_HOME ?? join(homeDir(env), '.local', 'share'), 'amp', 'threads');
    const native = join(dataHome(env), 'amp', 'threads');
    return xdg === native ? [xdg] : [xdg, native];
  },
  continue: (env) => [join(env.CONTINUE_GLOBAL_DIR ?? join(homeDir(env), '.continue'), 'sessions')],
  qwen: (env) => [join(homeDir(env), '.qwen', 'projects')],
  goose(env) {
    if (env.GOOSE_PATH_ROOT) return [join(env.GOOSE_PATH_ROOT, 'data', 'sessions')];
    if (process.platform === 'win32') return [join(env.APPDATA ?? join(homeDir(env), 'AppData', 'Roaming'), 'Block', 'goose', 'data', 'sessions')];
    return [join(env.XDG_DATA_HOME ?? join(homeDir(env), '.local', 'share'), 'goose', 'sessions')];
  },
  kimi: (env) => [join(env.KIMI_SHARE_DIR ?? join(homeDir(env), '.kimi'), 'sessions'), join(homeDir(env), '.kimi-code', 'sessions')],
  droid: (env) => [join(env.FACTORY_HOME ?? join(homeDir(env), '.factory'), 'sessions')],
  crush: crushProjects,
  openhands: (env) => [join(env.OH_PERSISTENCE_DIR ?? join(homeDir(env), '.openhands'), 'conversations')],
  kiro: (env) => [join(homeDir(env), '.kiro', 'sessions')],
  zed(env) {
    const base = process.platform === 'linux' || env.XDG_DATA_HOME ? join(dataHome(env), 'zed') : join(dataHome(env), 'Zed');
    return [join(base, 'threads')];
  },
  // exports are imported one by one (`session-search import`): no folder of their own
  chatgpt: () => [],
  'claude-ai': () => [],
  'gemini-takeout': () => [],
};

/**
 * The folders of `folders` that are workspaces to look for SpecStory and Aider histories in: not the file system's root
 * nor the home folder, which hold every project (and, from `/`, /proc's endless links): a command run there reads the
 * tools' own folders only.
 */
export function workspaceFolders(folders: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const home = resolve(homeDir(env));
  return folders.filter((folder) => {
    const path = resolve(folder);
    return path !== home && path !== parse(path).root;
  });
}

/** Default roots of every source (in the order sources are listed), derived from HOME and the variables that move them. */
export function defaultRoots(env: NodeJS.ProcessEnv): SourceRoot[] {
  return SOURCE_IDS.flatMap((source) => DEFAULT_ROOTS[source](env).map((path) => ({ source, path })));
}

/** Sources whose default folder is the open workspace (not a tool's home). */
export const WORKSPACE_SOURCES: ReadonlySet<SourceId> = new Set<SourceId>(['specstory', 'aider']);

/**
 * A client's roots split in two: the machine's (tools' homes, editors' storage: what an engine of the data folder reads
 * for everyone) and the workspace's (SpecStory and Aider histories in a window's folders or a command's working folder:
 * read for the clients that name them, while they are connected).
 */
export function splitRoots(roots: readonly SourceRoot[]): { machine: SourceRoot[]; workspace: SourceRoot[] } {
  return { machine: roots.filter((r) => !WORKSPACE_SOURCES.has(r.source)), workspace: roots.filter((r) => WORKSPACE_SOURCES.has(r.source)) };
}

/** A source as the editor's settings give it (sessionSearch.sources). */
export interface SourceSetting {
  id: SourceId;
  enabled: boolean;
  folders: string[];
}

/**
 * Roots from the editor's per-source settings: defaults of enabled sources (workspace folders for SpecStory/Aider) plus
 * extra folders. (Here, not beside the adapters: an MCP server works out its roots without loading them.)
 */
export function rootsFromSettings(sources: SourceSetting[], folders: string[], env: NodeJS.ProcessEnv): SourceRoot[] {
  const roots: SourceRoot[] = [];
  for (const source of sources) {
    // (an id the settings hold that no source has is skipped, whatever its name)
    const defaults = Object.hasOwn(DEFAULT_ROOTS, source.id) ? DEFAULT_ROOTS[source.id] : undefined;
    if (!source.enabled || !defaults) continue;
    for (const path of [...(WORKSPACE_SOURCES.has(source.id) ? workspaceFolders(folders, env) : defaults(env)), ...source.folders])
      roots.push({ source: source.id, path });
  }
  return roots;
}
