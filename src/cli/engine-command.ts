/**
 * `session-search engine [status|start|stop]`: the data folder's resident engine as its user sees it. `status` says
 * whether one runs and how it is (sessions, memory, clients, when it stops for idleness) without starting one or
 * keeping it up; `start` starts it and waits until it answers (a warm index before the first search); `stop` lets it
 * write its snapshot and go.
 */
import { SessionSearchError } from '../core/errors.js';
import { aboutEngine, handOver, openEngine } from '../engine/client.js';
import { describeEngine as describe } from '../engine/about-text.js';
import { UsageError, type CliOptions } from './args.js';
import { engineClientOptions } from './engine.js';

/** Exit status of `engine status` when no engine runs (as service managers report a unit that is not running). */
const NOT_RUNNING = 3;

interface EngineCommandResult {
  value: unknown;
  text: string;
  code: number;
}

export async function engineCommand(options: CliOptions): Promise<EngineCommandResult> {
  const action = options.positionals[0] ?? 'status';
  const { dataDir } = options;
  const none = `No engine runs for ${dataDir}: the next command, VS Code window or agent starts one.\n`;
  switch (action) {
    case 'status': {
      const about = await aboutEngine(dataDir);
      if (!about) return { value: { running: false, dataDir }, text: none, code: NOT_RUNNING };
      return { value: { running: true, ...about }, text: describe(about), code: 0 };
    }
    case 'start': {
      const opened = await openEngine({ ...engineClientOptions(options), complete: false });
      if ('reason' in opened) throw new SessionSearchError('READ_ERROR', `no engine can serve ${dataDir}: ${opened.reason}`);
      try {
        // (answered once the snapshot is restored, or at once on a first run: the load goes on in the engine)
        await opened.engine.list({ limit: 1 });
      } finally {
        await opened.engine.close();
      }
      const about = await aboutEngine(dataDir);
      if (!about) throw new SessionSearchError('READ_ERROR', `the engine of ${dataDir} stopped as it started (see its log, engine/engine.log)`);
      return { value: { running: true, ...about }, text: describe(about), code: 0 };
    }
    case 'stop': {
      const about = await aboutEngine(dataDir);
      if (!about) return { value: { running: false, stopped: false, dataDir }, text: none, code: 0 };
      await handOver(dataDir);
      return {
        value: { running: false, stopped: true, pid: about.pid, dataDir },
        text: `Stopped the engine (pid ${about.pid}) of ${dataDir}; ${'status' in about && about.status.storage ? `nothing was kept (${about.status.storage.detail})` : 'its index snapshot is written'}, and the next command starts a new one.\n`,
        code: 0,
      };
    }
    default:
      throw new UsageError(`engine takes "status", "start" or "stop", got "${action}".`);
  }
}
