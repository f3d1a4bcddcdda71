/**
 * The engine's VS Code windows: each connection that relays a window's requests (src/protocol.ts) is answered over
 * the engine's library (window.ts), and every window hears how the load goes and what changed. A window's team
 * archive is the one it joined with (engine/join).
 */
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { addImport } from '../core/ingest/imports.js';
import type { SessionLibrary } from '../core/library.js';
import type { LoadProgress } from '../core/library/options.js';
import type { Logger } from '../core/log.js';
import { ChangedNotification, IndexProgressNotification, WorkspaceAnsweredNotification, type IndexProgress } from '../protocol.js';
import type { JoinParams } from './protocol.js';
import { finishedProgress, serveWindow } from './window.js';

export class EngineWindows {
  private readonly windows = new Set<MessageConnection>();
  private readonly teams = new Map<MessageConnection, JoinParams['team']>();
  /** Stops the engine's first load (Cancel Indexing in a window): what was read stays. */
  readonly loading = new AbortController();
  private loaded = false;
  private last = 0;

  constructor(
    private readonly library: SessionLibrary,
    private readonly options: { dataDir: string; logger: Logger },
  ) {}

  /** The first load's progress, told every window (at most five times a second). */
  readonly progress = (p: LoadProgress): void => {
    if (Date.now() - this.last < 200 && p.files < p.totalFiles) return;
    this.last = Date.now();
    this.broadcast({ state: 'indexing', ...p });
  };

  /** The first load (or a rebuild) is over: windows show the count and refresh. */
  finished(): void {
    this.loaded = true;
    this.broadcast(finishedProgress(this.library, this.loading.signal.aborted));
    this.changed([]);
  }

  changed(files: string[]): void {
    for (const w of this.windows) tell(() => w.sendNotification(ChangedNotification, { files }));
  }

  /** A client joined: a window is told from now on how the load goes and what changed. */
  joined(connection: MessageConnection, params: JoinParams): void {
    this.teams.set(connection, params.team);
    if (params.window) this.windows.add(connection);
  }

  /** Answers a connection's window requests (every connection may ask them; only windows do). */
  serve(connection: MessageConnection): void {
    const { library, options } = this;
    serveWindow(connection, {
      library: async () => {
        await library.ready();
        return library;
      },
      logger: options.logger,
      team: () => this.teams.get(connection),
      teamProjects: () => this.teams.get(connection)?.projects ?? [],
      changed: (files) => this.changed(files),
      workspaceAnswered: (params) => tell(() => connection.sendNotification(WorkspaceAnsweredNotification, params)),
      importExport: async (path) => {
        const { added, known } = await addImport(options.dataDir, path);
        for (const root of added) await library.addRoot(root);
        const sessions = library.countSessions({ files: added.map((r) => r.path) });
        if (added.length) this.changed([]);
        return { added, known, sessions };
      },
      rebuild: async () => {
        this.broadcast({ state: 'indexing', files: 0, totalFiles: 0, bytes: 0, totalBytes: 0, sessions: 0 });
        await library.rebuild();
        this.finished();
      },
      cancelIndexing: () => {
        if (this.loaded || this.loading.signal.aborted) return false;
        this.loading.abort();
        return true;
      },
    });
  }

  release(connection: MessageConnection): void {
    this.windows.delete(connection);
    this.teams.delete(connection);
  }

  private broadcast(progress: IndexProgress): void {
    for (const w of this.windows) tell(() => w.sendNotification(IndexProgressNotification, progress));
  }
}

/**
 * Sends a window a notification, if it is still there: a connection closing (its client gone) refuses a send at once,
 * before its socket says it closed, and that must not stop the load or the answer that sent it.
 */
function tell(send: () => Promise<void>): void {
  try {
    send().catch(() => undefined);
  } catch {
    // (its socket's close comes next, and the window is let go then)
  }
}
