/** The embedding thread: runs a model folder's encoder (onnx-model.ts) for the thread's owner (folder.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { OnnxModel } from './onnx-model.js';
import type { EmbedReply, EmbedRequest, EmbedStart } from './folder.js';

const { folder, wasmDir } = workerData as EmbedStart;
const port = parentPort!;
OnnxModel.load(folder, wasmDir).then(
  (model) => {
    port.postMessage({ ready: model.name } satisfies EmbedReply);
    port.on('message', (request: EmbedRequest) => {
      model.embed(request.texts).then(
        (vectors) => port.postMessage({ id: request.id, vectors } satisfies EmbedReply),
        (err: unknown) => port.postMessage({ id: request.id, error: String((err as Error)?.message ?? err) } satisfies EmbedReply),
      );
    });
  },
  (err: unknown) => port.postMessage({ error: String((err as Error)?.message ?? err) } satisfies EmbedReply),
);
