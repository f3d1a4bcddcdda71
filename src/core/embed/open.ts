/** The embedder an embedding config names: an endpoint on this machine, or a model folder run on a thread. */
import { checkEmbedConfig, type EmbedConfig } from './config.js';
import type { Embedder } from './embedder.js';
import { EndpointEmbedder } from './endpoint.js';
import { FolderEmbedder } from './folder.js';

export async function openEmbedder(config: EmbedConfig): Promise<Embedder> {
  checkEmbedConfig(config);
  if (config.folder) return FolderEmbedder.start(config.folder);
  return EndpointEmbedder.from(config);
}
