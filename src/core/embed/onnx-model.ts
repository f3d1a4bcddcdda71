/**
 * A sentence encoder from a folder on disk, run by onnxruntime-web's WebAssembly (no native module, nothing fetched):
 * the folder's `model.onnx` (or `onnx/model.onnx`, or a quantized one) and its `tokenizer.json` (beside it or in the
 * folder above, as sentence-transformers models keep them). A model that gives `sentence_embedding` is used as is; one
 * that gives token states is mean-pooled over the attention mask, as sentence-transformers does. Runs on the embedding
 * thread (embed-worker.ts), where its compute does not stall answers.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { normalised } from './embedder.js';

/** Tokens read of each text (the models' windows are 256–8,192; the start of a prompt says what it is about). */
export const MAX_TOKENS = 256;
const MODEL_FILES = ['model.onnx', 'onnx/model.onnx', 'model_quantized.onnx', 'onnx/model_quantized.onnx', 'model_int8.onnx', 'onnx/model_int8.onnx'];

type Ort = typeof import('onnxruntime-web');
type TokenizerClass = typeof import('@huggingface/tokenizers').Tokenizer;

export interface FolderFiles {
  model: string;
  tokenizer: string;
  tokenizerConfig?: string;
}

/** Finds the model and tokenizer files of a folder, or says what is missing. */
export function folderFiles(folder: string): FolderFiles {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`the model folder ${folder} does not exist`);
  const model = MODEL_FILES.map((f) => join(folder, f)).find((f) => existsSync(f));
  if (!model) throw new Error(`no ONNX model in ${folder} (looked for ${MODEL_FILES.join(', ')})`);
  const near = [dirname(model), folder, dirname(folder)];
  const tokenizer = near.map((d) => join(d, 'tokenizer.json')).find((f) => existsSync(f));
  if (!tokenizer) throw new Error(`no tokenizer.json beside ${model}`);
  const tokenizerConfig = [join(dirname(tokenizer), 'tokenizer_config.json')].find((f) => existsSync(f));
  return { model, tokenizer, tokenizerConfig };
}

/** The name the folder's vectors are kept under: its model file, with the file's size and date (a new export re-embeds). */
export function folderModelName(files: FolderFiles): string {
  const st = statSync(files.model);
  return `folder:${files.model}#${st.size}-${Math.round(st.mtimeMs)}`;
}

export class OnnxModel {
  private constructor(
    private readonly ort: Ort,
    private readonly session: import('onnxruntime-web').InferenceSession,
    private readonly tokenizer: InstanceType<TokenizerClass>,
    private readonly padId: number,
    readonly name: string,
  ) {}

  /** Loads the folder's model (wasmDir: where the runtime's .wasm is, for a bundle). */
  static async load(folder: string, wasmDir?: string): Promise<OnnxModel> {
    const files = folderFiles(folder);
    const [ort, { Tokenizer }] = await Promise.all([import('onnxruntime-web'), import('@huggingface/tokenizers')]);
    ort.env.wasm.numThreads = 1;
    if (wasmDir) ort.env.wasm.wasmPaths = `${wasmDir.replace(/\/?$/, '/')}`;
    const tokenizerJson = JSON.parse(readFileSync(files.tokenizer, 'utf8')) as object;
    const tokenizerConfig = files.tokenizerConfig ? (JSON.parse(readFileSync(files.tokenizerConfig, 'utf8')) as object) : {};
    const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
    const session = await ort.InferenceSession.create(new Uint8Array(readFileSync(files.model)), { executionProviders: ['wasm'] });
    if (!session.inputNames.includes('input_ids')) throw new Error(`${files.model} takes no input_ids (inputs: ${session.inputNames.join(', ')})`);
    const pad = (tokenizerJson as { padding?: { pad_id?: number } }).padding?.pad_id;
    return new OnnxModel(ort, session, tokenizer, typeof pad === 'number' ? pad : 0, folderModelName(files));
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const { ort, session } = this;
    const encoded = texts.map((t) => this.tokenizer.encode(t || ' ').ids.slice(0, MAX_TOKENS));
    const width = Math.max(1, ...encoded.map((ids) => ids.length));
    const n = texts.length;
    const ids = new BigInt64Array(n * width).fill(BigInt(this.padId));
    const mask = new BigInt64Array(n * width);
    encoded.forEach((row, r) =>
      row.forEach((id, c) => {
        ids[r * width + c] = BigInt(id);
        mask[r * width + c] = 1n;
      }),
    );
    const feeds: Record<string, import('onnxruntime-web').Tensor> = { input_ids: new ort.Tensor('int64', ids, [n, width]) };
    if (session.inputNames.includes('attention_mask')) feeds.attention_mask = new ort.Tensor('int64', mask, [n, width]);
    if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(n * width), [n, width]);
    const outputs = await session.run(feeds);
    const pooled = outputs.sentence_embedding ?? outputs.last_hidden_state ?? outputs[session.outputNames[0]];
    const data = pooled.data as Float32Array;
    const dims = pooled.dims;
    if (dims.length === 2) return texts.map((_, r) => normalised(data.subarray(r * dims[1], (r + 1) * dims[1])));
    if (dims.length !== 3) throw new Error(`the model's output has ${dims.length} dimensions (expected token states or sentence vectors)`);
    const [, tokens, d] = dims;
    return encoded.map((row, r) => {
      const sum = new Float32Array(d);
      const used = Math.max(1, Math.min(row.length, tokens));
      for (let t = 0; t < used; t++) {
        const at = (r * tokens + t) * d;
        for (let k = 0; k < d; k++) sum[k] += data[at + k];
      }
      return normalised(sum);
    });
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
