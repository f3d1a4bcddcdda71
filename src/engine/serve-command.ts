/**
 * `session-search serve`: the data folder's engine, as the full CLI runs it (dist/cli.js serve) and as the engine's
 * own entry does (engine/main.ts, dist/serve.cjs, which clients start through its code cache: engine/start.ts).
 */
import { readingOptions, type CliOptions } from '../cli/args.js';

export async function runServe(options: CliOptions): Promise<void> {
  // a large history's roots are walked while the engine's modules load (ingest/scan-prestart.ts)
  const { prestartScan } = await import('../core/ingest/scan-prestart.js');
  prestartScan(readingOptions(options));
  const { serveEngine } = await import('./serve.js');
  const { ENGINE_VERSION } = await import('../version.js');
  const { productVersion } = await import('./client.js');
  await serveEngine({ ...readingOptions(options), version: productVersion(ENGINE_VERSION) });
}
