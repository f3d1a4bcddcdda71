/**
 * A window's answers when no engine can serve it (a read-only or network data folder, a sandbox): the library runs in
 * the index server's own process (main.ts, started only then), with its load, watchers, team archive and shutdown.
 */
import type { Connection } from 'vscode-languageserver/node';
import { errorMessage } from '../core/errors.js';
import { addImport } from '../core/ingest/imports.js';
import { rootsFromSettings } from '../core/ingest/sources/default-roots.js';
import { createLibrary, type SessionLibrary } from '../core/library.js';
import type { Logger } from '../core/log.js';
import { Persistence } from '../core/store/persistence.js';
import { finishedProgress, serveWindow } from '../engine/window.js';
import { ChangedNotification, IndexProgressNotification, WorkspaceAnsweredNotification, type ServerSettings } from '../protocol.js';

export type Handler = (params: unknown) => unknown;

let settings: ServerSettings | undefined;
let logger: Logger;
let send: (type: { method: string }, params: unknown) => void = () => undefined;
const roots = (s: ServerSettings) => rootsFromSettings(s.sources, s.workspaceFolders, process.env);

/** The library that answers (once it can). */
let library: SessionLibrary | undefined;
/** The library this process has open, answering or not yet: the one to close (a first load may still be reading). */
let opened: SessionLibrary | undefined;
let ready: Promise<SessionLibrary> | undefined;
let indexing: AbortController | undefined;

/** Stops the load under way and closes the library open, whether or not it answers yet. */
async function closeOpened(): Promise<void> {
  indexing?.abort();
  const closing = opened;
  opened = library = undefined;
  await closing?.close();
}

/** Opens a library over the roots: answerable once its snapshot is restored; the load, then watching, go on behind. */
async function open(): Promise<SessionLibrary> {
  if (!settings) throw new Error('the server was not initialised');
  await closeOpened();
  const { dataDir, archive, exclude, maxFileBytes, embed } = settings;
  // (watched once loaded: the window refreshes what changed)
  const watch = { onChange: (files: string[]) => send(ChangedNotification, { files }) };
  const next = createLibrary({ roots: roots(settings), logger, dataDir, archive, exclude, maxFileBytes, embed, watch });
  opened = next;
  const controller = new AbortController();
  indexing = controller;
  let last = 0;
  const loaded = next.load((p) => {
    if (Date.now() - last < 200 && p.files < p.totalFiles) return;
    last = Date.now();
    send(IndexProgressNotification, { state: 'indexing', ...p });
  }, controller.signal);
  void loaded.then(
    () => {
      if (indexing === controller) indexing = undefined;
      send(IndexProgressNotification, finishedProgress(next, controller.signal.aborted));
      send(ChangedNotification, { files: [] });
    },
    (err: unknown) => logger.error(`loading sessions failed: ${errorMessage(err)}`),
  );
  await next.ready();
  if (opened === next) library = next;
  return next;
}

/** The window's answers from a library of this process: opened now, watched once loaded. */
export function localAnswers(connection: Connection, windowSettings: ServerSettings, windowLogger: Logger): Map<string, Handler> {
  settings = windowSettings;
  logger = windowLogger;
  send = (type, params) => void connection.sendNotification(type.method, params);
  const handlers = new Map<string, Handler>();
  ready = open();
  ready.catch((err: unknown) => logger.error(`loading sessions failed: ${errorMessage(err)}`));
  serveWindow(
    { onRequest: (method, handler) => handlers.set(method, handler as Handler) },
    {
      library: async () => library ?? (await (ready ?? open())),
      logger,
      team: () => settings?.team,
      teamProjects: () => settings?.team?.projects ?? [],
      changed: (files) => send(ChangedNotification, { files }),
      workspaceAnswered: (params) => send(WorkspaceAnsweredNotification, params),
      async importExport(path) {
        const { added, known } = await addImport(settings!.dataDir, path);
        if (!added.length) return { added, known, sessions: 0 };
        // open again over the roots with the new exports: the snapshot is kept, only the new files are read
        ready = open();
        const opened = await ready;
        await opened.untilLoaded();
        return { added, known, sessions: opened.countSessions({ files: added.map((r) => r.path) }) };
      },
      async rebuild() {
        await closeOpened();
        if (settings) await Persistence.discard(settings.dataDir);
        ready = open();
        await ready;
      },
      cancelIndexing() {
        if (!indexing) return false;
        indexing.abort();
        return true;
      },
    },
  );
  return handlers;
}

/** The window closes: the load stops (what was read is kept), then the library (its watchers, team archive, snapshot). */
export async function closeLocal(): Promise<void> {
  await closeOpened();
}
