/**
 * A model folder run by the real WebAssembly runtime (onnxruntime-web) on the embedding thread, with a real tokenizer
 * file: a tiny ONNX model written here with an ONNX protobuf library (an embedding table looked up per token; one
 * variant mean-pools inside the graph). The vectors must be the mean of the table's rows for the tokenizer's ids, the
 * sentence-transformers layout (onnx/model.onnx, tokenizer beside the folder) must be found, and a folder that lacks a
 * file must say which. No ranking quality is claimed from it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import onnxProto from 'onnx-proto';
import { FolderEmbedder } from '../../src/core/embed/folder.js';
import { folderFiles } from '../../src/core/embed/onnx-model.js';
import { tempDir } from '../helpers.js';

const { onnx } = onnxProto;
const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'retry', 'loop', 'back', 'off', 'database', '##s', 'the', 'index'];
const D = 6;
const TABLE = Array.from({ length: VOCAB.length }, (_, row) => Array.from({ length: D }, (_, k) => Math.sin(row * 7 + k + 1)));

/** The model: token ids → their table rows ("last_hidden_state"), or with `pooled` their mean ("sentence_embedding"). */
function modelBytes(pooled = false): Uint8Array {
  const { INT64, FLOAT } = onnx.TensorProto.DataType;
  const dims = (...d: (number | string)[]) => ({ dim: d.map((x) => (typeof x === 'number' ? { dimValue: x } : { dimParam: x })) });
  const out = pooled ? 'sentence_embedding' : 'last_hidden_state';
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'tiny-encoder',
      initializer: [{ name: 'table', dims: [VOCAB.length, D], dataType: FLOAT, floatData: TABLE.flat() }],
      input: ['input_ids', 'attention_mask'].map((name) => ({ name, type: { tensorType: { elemType: INT64, shape: dims('batch', 'tokens') } } })),
      output: [{ name: out, type: { tensorType: { elemType: FLOAT, shape: pooled ? dims('batch', D) : dims('batch', 'tokens', D) } } }],
      node: [
        {
          opType: 'Gather',
          input: ['table', 'input_ids'],
          output: [pooled ? 'states' : out],
          attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        },
        ...(pooled
          ? [
              {
                opType: 'ReduceMean',
                input: ['states'],
                output: [out],
                attribute: [
                  { name: 'axes', type: onnx.AttributeProto.AttributeType.INTS, ints: [1] },
                  { name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 },
                ],
              },
            ]
          : []),
      ],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** A BERT-style WordPiece tokenizer.json over VOCAB, with [CLS] … [SEP] around each text. */
const TOKENIZER = {
  version: '1.0',
  truncation: null,
  padding: null,
  added_tokens: [],
  normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  post_processor: {
    type: 'TemplateProcessing',
    single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
    pair: [],
    special_tokens: { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] } },
  },
  decoder: null,
  model: {
    type: 'WordPiece',
    unk_token: '[UNK]',
    continuing_subword_prefix: '##',
    max_input_chars_per_word: 100,
    vocab: Object.fromEntries(VOCAB.map((w, i) => [w, i])),
  },
};

function modelFolder(layout: 'flat' | 'sentence-transformers', pooled = false): string {
  const dir = tempDir();
  const modelDir = layout === 'flat' ? dir : join(dir, 'onnx');
  mkdirSync(modelDir, { recursive: true });
  writeFileSync(join(modelDir, 'model.onnx'), modelBytes(pooled));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(TOKENIZER));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 512, do_lower_case: true }));
  return dir;
}

/** The expected vector: the mean of the rows of `tokens` (the tokenizer's output, written out by hand), unit length. */
function expected(tokens: string[]): number[] {
  const sum: number[] = new Array<number>(D).fill(0);
  for (const t of tokens) TABLE[VOCAB.indexOf(t)].forEach((x, k) => (sum[k] += x / tokens.length));
  const norm = Math.hypot(...sum);
  return sum.map((x) => x / norm);
}

const started: FolderEmbedder[] = [];
after(() => Promise.all(started.map((e) => e.close())));

async function start(folder: string): Promise<FolderEmbedder> {
  const embedder = await FolderEmbedder.start(folder);
  started.push(embedder);
  return embedder;
}

const near = (actual: Float32Array, wanted: number[], what: string): void =>
  wanted.forEach((x, k) => assert.ok(Math.abs(actual[k] - x) < 1e-5, `${what}: dimension ${k} is ${actual[k]}, expected ${x}`));

test('token states are mean-pooled over the attention mask, texts of different lengths in one batch', async () => {
  const embedder = await start(modelFolder('flat'));
  assert.match(embedder.model, /^folder:.*model\.onnx#\d+-\d+$/);
  const [a, b, c] = await embedder.embed(['The Retry loops', 'database index back off', 'zzz']);
  near(a, expected(['[CLS]', 'the', 'retry', 'loop', '##s', '[SEP]']), 'the retry loops');
  near(b, expected(['[CLS]', 'database', 'index', 'back', 'off', '[SEP]']), 'database index back off');
  near(c, expected(['[CLS]', '[UNK]', '[SEP]']), 'an unknown word');
  // more texts than one message to the thread, and a text longer than the tokens read
  const many = await embedder.embed([...Array.from({ length: 20 }, (_, i) => `retry ${'loop '.repeat(i)}`), 'retry '.repeat(2_000)]);
  assert.equal(many.length, 21);
  near(many[0], expected(['[CLS]', 'retry', '[SEP]']), 'the first of many');
});

test("the sentence-transformers layout (onnx/model.onnx, tokenizer above it), and a model's own pooled output", async () => {
  const folder = modelFolder('sentence-transformers', true);
  assert.equal(folderFiles(join(folder, 'onnx')).tokenizer, join(folder, 'tokenizer.json'));
  const embedder = await start(folder);
  const [v] = await embedder.embed(['retry the loop']);
  near(v, expected(['[CLS]', 'retry', 'the', 'loop', '[SEP]']), 'pooled by the model');
});

test('a folder without a model or a tokenizer says what is missing', async () => {
  const empty = tempDir();
  await assert.rejects(FolderEmbedder.start(empty), /no ONNX model in/);
  writeFileSync(join(empty, 'model.onnx'), modelBytes());
  await assert.rejects(FolderEmbedder.start(empty), /no tokenizer\.json/);
  writeFileSync(join(empty, 'tokenizer.json'), JSON.stringify(TOKENIZER));
  writeFileSync(join(empty, 'model.onnx'), 'not a model');
  await assert.rejects(FolderEmbedder.start(empty));
});
