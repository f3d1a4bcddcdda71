/**
 * An embedding endpoint on this machine: Ollama's `/api/embed` ({model, input} → {embeddings}) or the OpenAI-compatible
 * `/v1/embeddings` ({model, input} → {data: [{embedding, index}]}) that LM Studio, llama.cpp's server and vLLM speak.
 * The path says which (`…/api/embed`, `…/v1`, `…/v1/embeddings`); a bare address tries Ollama's, then the other.
 * Texts go in batches; a refused connection, a timeout, 429 or 5xx is tried again after a pause, other answers are
 * final (an unknown model says so).
 */
import { normalised, type Embedder } from './embedder.js';
import { checkEmbedConfig, type EmbedConfig } from './config.js';

type Protocol = 'ollama' | 'openai';

/** Texts per request. */
export const BATCH = 32;
/** A text is cut to this many characters (the models read 512 tokens or so). */
export const TEXT_CHARS = 2_000;
/** Tries of one request, and the pauses between them. */
const PAUSES_MS = [500, 2_000];
const DEFAULT_TIMEOUT_MS = 120_000;

class EndpointError extends Error {
  constructor(
    message: string,
    readonly again: boolean,
  ) {
    super(message);
  }
}

/** The URLs to try, with their protocols, for what the user named. */
export function endpointUrls(endpoint: string): { url: string; protocol: Protocol }[] {
  const base = endpoint.replace(/\/+$/, '');
  if (/\/api\/embed$/.test(base)) return [{ url: base, protocol: 'ollama' }];
  if (/\/embeddings$/.test(base)) return [{ url: base, protocol: 'openai' }];
  if (/\/v1$/.test(base)) return [{ url: `${base}/embeddings`, protocol: 'openai' }];
  return [
    { url: `${base}/api/embed`, protocol: 'ollama' },
    { url: `${base}/v1/embeddings`, protocol: 'openai' },
  ];
}

function vectorsOf(protocol: Protocol, body: unknown, expected: number): number[][] {
  const fail = (why: string): never => {
    throw new EndpointError(`the endpoint's answer is not ${protocol === 'ollama' ? "Ollama's" : 'OpenAI-compatible'} embeddings (${why})`, false);
  };
  const b = body as { embeddings?: unknown; data?: unknown };
  let vectors: unknown[];
  if (protocol === 'ollama') vectors = Array.isArray(b?.embeddings) ? b.embeddings : fail('no "embeddings"');
  else {
    const data = Array.isArray(b?.data) ? (b.data as { embedding?: unknown; index?: number }[]) : fail('no "data"');
    vectors = [...data].sort((x, y) => (x.index ?? 0) - (y.index ?? 0)).map((d) => d.embedding);
  }
  if (vectors.length !== expected) fail(`${vectors.length} vectors for ${expected} texts`);
  const dims = Array.isArray(vectors[0]) ? vectors[0].length : 0;
  for (const v of vectors)
    if (!Array.isArray(v) || v.length !== dims || !dims || v.some((x) => typeof x !== 'number' || !Number.isFinite(x)))
      fail('a vector is not numbers of one length');
  return vectors as number[][];
}

export class EndpointEmbedder implements Embedder {
  readonly model: string;
  private chosen: { url: string; protocol: Protocol } | undefined;

  constructor(
    private readonly config: EmbedConfig & { endpoint: string; model: string },
    private readonly pauses: readonly number[] = PAUSES_MS,
  ) {
    checkEmbedConfig(config);
    this.model = `endpoint:${config.model}`;
  }

  /** (the constructor checks that the config names an endpoint and a model) */
  static from(config: EmbedConfig): EndpointEmbedder {
    return new EndpointEmbedder(config as EmbedConfig & { endpoint: string; model: string });
  }

  async embed(texts: string[], options: { timeoutMs?: number } = {}): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const batch = texts.slice(i, i + BATCH).map((t) => t.slice(0, TEXT_CHARS) || ' ');
      for (const v of await this.batch(batch, options.timeoutMs ?? DEFAULT_TIMEOUT_MS)) out.push(normalised(v));
    }
    return out;
  }

  async close(): Promise<void> {}

  private async batch(texts: string[], timeoutMs: number): Promise<number[][]> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(texts, timeoutMs);
      } catch (err) {
        const again = err instanceof EndpointError ? err.again : true;
        if (!again || attempt >= this.pauses.length) throw err instanceof EndpointError ? new Error(err.message) : err;
        await new Promise((resolve) => setTimeout(resolve, this.pauses[attempt]));
      }
    }
  }

  private async once(texts: string[], timeoutMs: number): Promise<number[][]> {
    const candidates = this.chosen ? [this.chosen] : endpointUrls(this.config.endpoint);
    let last: Error | undefined;
    for (const candidate of candidates) {
      const body =
        candidate.protocol === 'ollama'
          ? { model: this.config.model, input: texts, truncate: true }
          : { model: this.config.model, input: texts, encoding_format: 'float' };
      let response: Response;
      try {
        response = await fetch(candidate.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error', // (a loopback endpoint may not send the texts elsewhere)
        });
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
        throw new EndpointError(`the embedding endpoint ${this.config.endpoint} did not answer (${cause})`, true);
      }
      const text = await response.text().catch(() => '');
      if (response.status === 404 && candidates.length > 1 && candidate !== candidates.at(-1)) {
        last = new EndpointError(`${candidate.url}: 404`, false);
        continue; // the other protocol
      }
      if (!response.ok) {
        const said = text.slice(0, 300).replace(/\s+/g, ' ');
        throw new EndpointError(
          `the embedding endpoint answered ${response.status}${said ? `: ${said}` : ''}`,
          response.status === 429 || response.status >= 500,
        );
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new EndpointError('the embedding endpoint answered something other than JSON', false);
      }
      const vectors = vectorsOf(candidate.protocol, parsed, texts.length);
      this.chosen = candidate;
      return vectors;
    }
    throw last ?? new EndpointError('no embedding endpoint answered', true);
  }
}
