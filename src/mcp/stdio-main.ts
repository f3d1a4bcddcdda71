/** What dist/mcp.js runs once the agent's lines are being read (stdio.ts): the options, then the server. */
import { errorMessage } from '../core/errors.js';
import { parseCli, UsageError } from '../cli/args.js';
import { rootsFromSettings, type SourceRoot, type SourceSetting } from '../core/ingest/sources/default-roots.js';
import { runStdioServer } from './run.js';
import type { AgentLines } from './agent-lines.js';

/** Set by the VS Code extension: the editor's per-source settings, used when no --root is given. */
function editorRoots(): SourceRoot[] | undefined {
  const raw = process.env.SESSION_SEARCH_SOURCES;
  if (!raw) return undefined;
  const parsed = JSON.parse(raw) as { sources: SourceSetting[]; workspaceFolders: string[] };
  return rootsFromSettings(parsed.sources, parsed.workspaceFolders, process.env);
}

export function startStdio(agent: AgentLines, write: (line: string) => void): void {
  try {
    const options = parseCli(['mcp', ...process.argv.slice(2)], process.env);
    const roots = options.rootsGiven ? options.roots : (editorRoots() ?? options.roots);
    runStdioServer({
      roots,
      dataDir: options.dataDir,
      archive: options.archive,
      verbose: options.verbose,
      teamDb: options.db ?? (process.env.SESSION_SEARCH_TEAM_DB?.trim() || undefined),
      machine: options.machine,
      embed: options.embed,
      agent,
      write,
    }).catch((err: unknown) => {
      process.stderr.write(`session-search mcp: ${errorMessage(err)}\n`);
      process.exitCode = 1;
    });
  } catch (err) {
    process.stderr.write(`session-search mcp: ${errorMessage(err)}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  }
}
