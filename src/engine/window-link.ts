/**
 * A VS Code window's link to the data folder's engine, with the window's settings (src/protocol.ts ServerSettings):
 * the engine is started if none runs, the window's SpecStory and Aider folders are registered with it while the link
 * is open, and its notifications (progress, changes, workspace answers) reach the window, first the state it is in
 * now. The extension host opens it itself; the index server of dist/server.cjs opens it when the extension asks that
 * process to (no vscode import here).
 */
import { rootsFromSettings } from '../core/ingest/sources/default-roots.js';
import type { Logger } from '../core/log.js';
import { ENGINE_VERSION } from '../version.js';
import { ChangedNotification, IndexProgressNotification, WorkspaceAnsweredNotification, type IndexProgress, type ServerSettings } from '../protocol.js';
import { openEngine, type RemoteEngine } from './client.js';

/** The notifications a window is sent, by method. */
export const WINDOW_NOTIFICATIONS = [IndexProgressNotification.method, ChangedNotification.method, WorkspaceAnsweredNotification.method] as const;

export interface WindowLinkOptions {
  /** The CLI bundle that runs `serve` (engineEntry()). */
  entry: string | undefined;
  /** The environment the engine is started with (the extension host's, run as Node). */
  env?: NodeJS.ProcessEnv;
  logger: Logger;
  /** Each notification the engine sends the window. */
  notify: (method: string, params: unknown) => void;
}

/** The engine for a window, or why none can serve it (the window then answers from a library of its own). */
export async function openWindowLink(s: ServerSettings, options: WindowLinkOptions): Promise<{ engine: RemoteEngine } | { reason: string }> {
  const env = options.env ?? process.env;
  const team = s.team ? { url: s.team.url, machine: s.team.machine } : undefined;
  const opened = await openEngine({
    roots: rootsFromSettings(s.sources, s.workspaceFolders, env),
    dataDir: s.dataDir,
    archive: s.archive,
    exclude: s.exclude,
    maxFileBytes: s.maxFileBytes,
    watchWorkspace: true,
    window: true,
    windowTeam: team && { ...team, projects: s.team?.projects ?? [] },
    embed: s.embed,
    version: ENGINE_VERSION,
    entry: options.entry,
    env,
  });
  if ('reason' in opened) return opened;
  const { engine } = opened;
  options.logger.info(`answering from the engine of ${s.dataDir} (pid ${engine.where.kind === 'engine' ? engine.where.pid : '?'})`);
  for (const method of WINDOW_NOTIFICATIONS) engine.onNotification(method, (params) => options.notify(method, params));
  // the window shows where the engine's load is, whether it joins at the start or long after
  const status = await engine.status().catch(async (err: unknown) => {
    await engine.close();
    throw err;
  });
  const progress: IndexProgress =
    status.complete || status.stopped
      ? { state: status.stopped ? 'stopped' : 'ready', reason: status.stopped, files: 0, totalFiles: 0, bytes: 0, totalBytes: 0, sessions: status.sessions }
      : {
          state: 'indexing',
          files: status.filesDone,
          totalFiles: status.filesTotal,
          bytes: status.bytesDone,
          totalBytes: status.bytesTotal,
          sessions: status.sessions,
        };
  options.notify(IndexProgressNotification.method, progress);
  options.notify(ChangedNotification.method, { files: [] });
  return { engine };
}
