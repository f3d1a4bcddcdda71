/**
 * A parsing thread: reads transcript files through their source adapter (parsing and masking, the costly part of a
 * load) while the main thread indexes and archives what was read before. Its messages are typed in parse-pool.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { SessionNote } from '../model.js';
import { sourceById } from './sources/registry.js';
import { readFileCounting } from './unread-lines.js';
import type { ParseRequest, ParseReply } from './parse-pool.js';

const port = parentPort;
if (port) {
  const env = (workerData as { env: NodeJS.ProcessEnv }).env;
  port.on('message', (request: ParseRequest) => {
    const logs: ParseReply['logs'] = [];
    const logger: Logger = {
      info: (message) => logs.push(['info', message]),
      warn: (message) => logs.push(['warn', message]),
      error: (message) => logs.push(['error', message]),
    };
    const reply = (body: Omit<ParseReply, 'id' | 'logs'>): void => port.postMessage({ id: request.id, logs, ...body } satisfies ParseReply);
    const adapter = sourceById(request.source);
    if (!adapter) return reply({ error: `unknown source ${request.source}` });
    readFileCounting(adapter, request.file, request.root, { logger, env }).then(
      (sessions) => reply({ sessions, notes: sessions.map((s) => SessionNote.pack(s)) }),
      (err: unknown) => reply({ error: errorMessage(err) }),
    );
  });
}
