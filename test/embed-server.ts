/**
 * A local embedding endpoint for tests: speaks Ollama's /api/embed and the OpenAI-compatible /v1/embeddings, and
 * answers from a small deterministic embedding (each word adds to one of DIMS dimensions: words of one CONCEPTS group
 * to the same one), so that a test knows which texts are near without a real model. It records what it was asked, and
 * can be told to fail, stall or change model. No test claims ranking quality from it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DIMS = 24;
/** Words that mean one thing, in the fake model. */
const CONCEPTS = [
  ['countdown', 'seconds', 'remaining', 'timer', 'wait', 'waiting'],
  ['retry', 'again', 'backoff', 'reconnect', 'retrying'],
  ['database', 'postgres', 'sql', 'storage', 'table'],
];

function wordDim(word: string, dims: number): number {
  const group = CONCEPTS.findIndex((g) => g.includes(word));
  if (group >= 0) return group;
  let h = 7;
  for (const ch of word) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return CONCEPTS.length + (h % (dims - CONCEPTS.length));
}

/** The fake model's vector of a text (unnormalised); `salt` shifts every word (another "model"). */
export function fakeVector(text: string, salt = 0, dims = DIMS): number[] {
  const v: number[] = new Array<number>(dims).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) v[(wordDim(w, dims) + salt) % dims] += 1;
  if (!v.some((x) => x !== 0)) v[dims - 1] = 1;
  return v;
}

export interface FakeEndpoint {
  url: string;
  /** Every request's texts, in order, with its path and model. */
  requests: { path: string; model: string; input: string[] }[];
  /** Answer the next n requests with this status. */
  failNext(n: number, status?: number): void;
  /** Wait this long before answering (0: at once). */
  stallMs: number;
  /** Protocols served ('ollama' answers 404 on /v1/…, 'openai' 404 on /api/embed). */
  serves: 'both' | 'ollama' | 'openai';
  /** Models it knows (others: 404 "model not found"), and the salt of each. */
  models: Record<string, number>;
  close(): Promise<void>;
}

export async function startFakeEndpoint(models: Record<string, number> = { 'fake-embed': 0 }, dims = DIMS): Promise<FakeEndpoint> {
  let failing = 0;
  let failStatus = 503;
  const state: Omit<FakeEndpoint, 'url' | 'close' | 'failNext'> = { requests: [], stallMs: 0, serves: 'both', models };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const path = req.url ?? '';
    const ollama = path === '/api/embed';
    const openai = path === '/v1/embeddings';
    const send = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method !== 'POST' || (!ollama && !openai) || (ollama && state.serves === 'openai') || (openai && state.serves === 'ollama'))
      return send(404, { error: 'not found' });
    const { model, input } = JSON.parse(body) as { model: string; input: string[] | string };
    const texts = Array.isArray(input) ? input : [input];
    state.requests.push({ path, model, input: texts });
    if (state.stallMs) await new Promise((resolve) => setTimeout(resolve, state.stallMs));
    if (failing > 0) {
      failing--;
      return send(failStatus, { error: 'busy' });
    }
    if (!(model in state.models)) return send(404, { error: `model "${model}" not found, try pulling it first` });
    const vectors = texts.map((t) => fakeVector(t, state.models[model], dims));
    if (ollama) return send(200, { model, embeddings: vectors });
    // (in another order than asked: the index says which is which)
    const data = vectors.map((embedding, index) => ({ object: 'embedding', embedding, index })).reverse();
    send(200, { object: 'list', data, model });
  };
  const server: Server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint: FakeEndpoint = Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    failNext(n: number, status = 503) {
      failing = n;
      failStatus = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return endpoint;
}
