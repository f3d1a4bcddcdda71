/**
 * A training thread: learns the LSA model from the bags it is given (seconds at 10,000 sessions) while the main thread
 * keeps answering lexically. Its messages are typed in semantic-index.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { trainLsa } from './lsa.js';
import type { TrainReply, TrainRequest } from './semantic-index.js';

const port = parentPort;
if (port) {
  const { bags, vocabulary, k } = workerData as TrainRequest;
  try {
    const model = trainLsa(bags, vocabulary, k);
    port.postMessage({ model } satisfies TrainReply, [model.idf.buffer as ArrayBuffer, model.projection.buffer as ArrayBuffer]);
  } catch (err) {
    port.postMessage({ error: String(err) } satisfies TrainReply);
  }
}
