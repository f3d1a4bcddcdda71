/**
 * The engine as an agent's tools see it: a folder in a tool's arguments (a project filter, file_history's path,
 * store_session's projectDir) that is not absolute is the agent's, read against the folder the MCP server runs in,
 * which is not the engine's own (the session is served in the engine, started by whichever client came first).
 */
import { isAbsolute, resolve } from 'node:path';
import type { Engine } from '../engine/api.js';

export function inFolder(engine: Engine, cwd: string): Engine {
  const at = <T extends string | undefined>(path: T): T => (path && !isAbsolute(path) ? (resolve(cwd, path) as T) : path);
  return {
    ...engine,
    search: (query, options) => engine.search(query, { ...options, project: at(options.project) }),
    searchContext: (query, options) => engine.searchContext(query, { ...options, project: at(options.project) }),
    list: (options) => engine.list({ ...options, project: at(options?.project) }),
    fileHistory: (query) => engine.fileHistory({ ...query, path: at(query.path) }),
    store: (input, now) => engine.store({ ...input, projectDir: at(input.projectDir) }, now),
    preferences: (project) => engine.preferences(at(project)),
  };
}
