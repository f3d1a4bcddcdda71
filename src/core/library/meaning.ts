/**
 * The library's use of the user's own embedding model (embed/leg.ts): one leg at a time, switched when the config
 * changes (the vectors of another model are made again in the background), its vectors kept in the data folder by the
 * writer, embedding held until the first load is done.
 */
import { readFile } from 'node:fs/promises';
import { describeEmbed, isEmbedConfigured, type EmbedConfig } from '../embed/config.js';
import { MeaningLeg } from '../embed/leg.js';
import { Persistence } from '../store/persistence.js';
import type { TurnStore } from '../store/turn-store.js';
import type { LibraryOptions } from './options.js';
import type { SessionCatalog } from './catalog.js';

export interface Meaning {
  /** Uses the model a config names (undefined: none); the same config again changes nothing. */
  use(config: EmbedConfig | undefined): void;
  /** Embedding may start: the first load is done. */
  release(): void;
  close(): Promise<void>;
}

const keyOf = (config: EmbedConfig | undefined): string =>
  isEmbedConfigured(config) ? JSON.stringify([config.endpoint ?? null, config.model ?? null, config.folder ?? null, !!config.allowRemote]) : '';

export function createMeaning(options: LibraryOptions, catalog: SessionCatalog, persistence: Persistence | undefined, turns: TurnStore): Meaning {
  const { logger, dataDir } = options;
  let key = '';
  let released = false;
  const open = async (config: EmbedConfig) => (options.openEmbedder ?? (await import('../embed/open.js')).openEmbedder)(config);
  const meaning: Meaning = {
    use(config) {
      const next = keyOf(config);
      if (next === key) {
        if (catalog.meaning) catalog.meaning.weight = config?.weight;
        return;
      }
      key = next;
      const old = catalog.meaning;
      catalog.meaning = undefined;
      if (old) {
        logger.info(`meaning: no longer from ${describeEmbed(old.config)}`);
        void old.close();
      }
      if (!isEmbedConfigured(config)) return;
      const leg = new MeaningLeg(config, {
        logger,
        sessions: () => catalog.sessions,
        turns,
        open,
        read: dataDir ? () => readFile(Persistence.embeddingsPath(dataDir)).catch(() => undefined) : undefined,
        write: persistence ? (parts) => persistence.saveEmbeddings(parts) : undefined,
        retryMs: options.embedRetryMs,
      });
      catalog.meaning = leg;
      if (released) leg.release();
    },
    release() {
      released = true;
      catalog.meaning?.release();
    },
    async close() {
      key = '';
      const leg = catalog.meaning;
      catalog.meaning = undefined;
      await leg?.close();
    },
  };
  meaning.use(options.embed);
  return meaning;
}
