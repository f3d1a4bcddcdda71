/**
 * A thread that walks the roots and states their transcript files (`scanRoots`) while the main thread restores the
 * snapshot: a warm start's two longest steps at once. Its messages are typed in scan-aside.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { transcriptTest } from './exclude.js';
import { scanRoots } from './file-state.js';
import type { ScanReply, ScanRequest } from './scan-aside.js';

const port = parentPort;
if (port) {
  const { roots, exclude } = workerData as ScanRequest;
  const logs: ScanReply['logs'] = [];
  const logger: Logger = {
    info: (message) => logs.push(['info', message]),
    warn: (message) => logs.push(['warn', message]),
    error: (message) => logs.push(['error', message]),
  };
  scanRoots(roots, logger, transcriptTest(exclude)).then(
    ({ plan }) => port.postMessage({ logs, plan } satisfies ScanReply),
    (err: unknown) => port.postMessage({ logs, error: errorMessage(err) } satisfies ScanReply),
  );
}
