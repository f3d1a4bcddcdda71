/** Where a data folder's index lies. Its own small module, for what runs before the library loads (ingest/scan-prestart.ts). */
import { join } from 'node:path';

/** The index snapshot (store/snapshot.ts). */
export function snapshotFile(dataDir: string): string {
  return join(dataDir, 'index', 'snapshot.bin');
}
