/**
 * Where meaning comes from when the user has a model of their own (docs/ARCHITECTURE.md, "Meaning from the user's
 * model"): an embedding endpoint on this machine (Ollama's `/api/embed` or an OpenAI-compatible `/v1/embeddings`) or an
 * ONNX sentence encoder in a folder on disk. Both opt-in; nothing is fetched, and an endpoint must be a loopback address
 * unless the user allowed others in a setting of their own (never a workspace's).
 */
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { SessionSearchError } from '../errors.js';

export interface EmbedConfig {
  /** `http://127.0.0.1:11434` (Ollama), `http://localhost:1234/v1` (LM Studio, llama.cpp): the protocol follows the path. */
  endpoint?: string;
  /** The endpoint's model (`nomic-embed-text`, `bge-small-en-v1.5`…). */
  model?: string;
  /** A folder holding `model.onnx` (or `onnx/model.onnx`) and `tokenizer.json`. */
  folder?: string;
  /** Let the endpoint be another host (a user setting only: transcripts would leave the machine). */
  allowRemote?: boolean;
  /** How much the model's list counts in the fusion against the words' 1 (default answer/hybrid.ts MODEL_WEIGHT). */
  weight?: number;
}

/** The config named by the environment (SESSION_SEARCH_EMBED_ENDPOINT, _MODEL, _FOLDER, _ALLOW_REMOTE=1), if any. */
export function embedConfigFromEnv(env: NodeJS.ProcessEnv): EmbedConfig | undefined {
  const config: EmbedConfig = {
    endpoint: env.SESSION_SEARCH_EMBED_ENDPOINT?.trim() || undefined,
    model: env.SESSION_SEARCH_EMBED_MODEL?.trim() || undefined,
    folder: env.SESSION_SEARCH_EMBED_FOLDER?.trim() || undefined,
    allowRemote: env.SESSION_SEARCH_EMBED_ALLOW_REMOTE === '1' || undefined,
    weight: env.SESSION_SEARCH_EMBED_WEIGHT?.trim() ? Number(env.SESSION_SEARCH_EMBED_WEIGHT) : undefined,
  };
  return isEmbedConfigured(config) ? config : undefined;
}

export function isEmbedConfigured(config: EmbedConfig | undefined): config is EmbedConfig {
  return !!config && !!(config.endpoint || config.folder);
}

/** Host names that are this machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '::ffff:127.0.0.1';
}

/** Throws a clear error for a config that cannot be used: both ways at once, no model, not http(s), another host. */
export function checkEmbedConfig(config: EmbedConfig): EmbedConfig {
  const bad = (message: string): never => {
    throw new SessionSearchError('INVALID_ARGUMENT', message);
  };
  if (config.endpoint && config.folder) bad('Name an embedding endpoint or a model folder, not both.');
  if (config.folder) {
    // (a folder typed in a setting as ~/models/…)
    config.folder = config.folder.replace(/^~(?=$|[\\/])/, homedir());
    if (!isAbsolute(config.folder)) bad(`The model folder must be an absolute path, got "${config.folder}".`);
  }
  if (config.weight !== undefined && !(Number.isFinite(config.weight) && config.weight >= 0 && config.weight <= 4))
    bad(`The model's weight must be a number from 0 to 4 (the words count 1), got ${String(config.weight)}.`);
  if (config.endpoint) {
    let url: URL;
    try {
      url = new URL(config.endpoint);
    } catch {
      return bad(`The embedding endpoint "${config.endpoint}" is not a URL (for Ollama: http://127.0.0.1:11434).`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') bad(`The embedding endpoint must be http or https, got ${url.protocol}`);
    if (!config.model) bad('An embedding endpoint needs a model name too (sessionSearch.semantic.model, --embed-model).');
    if (!isLoopback(url.hostname) && !config.allowRemote)
      bad(
        `The embedding endpoint ${url.host} is not on this machine: transcripts would be sent to it. Allow it only in your user settings (sessionSearch.semantic.allowRemoteEndpoint) or with SESSION_SEARCH_EMBED_ALLOW_REMOTE=1.`,
      );
  }
  return config;
}

/** A short name for logs and answers. */
export function describeEmbed(config: EmbedConfig): string {
  return config.folder ? `model folder ${config.folder}` : `${config.model} at ${config.endpoint}`;
}
