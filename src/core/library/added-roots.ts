/**
 * Roots added while a library runs: the SpecStory and Aider histories of a window's workspace folders, registered with
 * the engine by the window that opens them. Each is resolved, joined to the loader's roots (so live reloads and root
 * checks know it), and its changed files are read one by one once the first load is done.
 */
import { realpath } from 'node:fs/promises';
import { scanRoots } from '../ingest/file-state.js';
import { sourceById, type SourceRoot } from '../ingest/sources/registry.js';
import type { Logger } from '../log.js';
import { SessionSearchError } from '../errors.js';
import type { SessionCatalog } from './catalog.js';
import type { Loader } from './loader.js';

export async function addRoot(load: Loader, catalog: SessionCatalog, root: SourceRoot, logger: Logger): Promise<SourceRoot | undefined> {
  const adapter = sourceById(root.source);
  if (!adapter) throw new SessionSearchError('INVALID_ARGUMENT', `Unknown source "${root.source}".`);
  const real = await realpath(root.path).catch(() => undefined);
  if (!real) return undefined;
  const known = load.roots.find((r) => r.source === root.source && r.path === real);
  if (known) return known;
  const added: SourceRoot = { source: root.source, path: real };
  load.roots.push(added);
  // a load under way reads it if it had not walked the roots yet; what it did not read is read here, after it
  await load.loaded;
  const { plan } = await scanRoots([added], logger, (a, f, r) => load.accepts(a, f, r));
  const changed = plan.flatMap((p) => p.files).filter((f) => !catalog.unchanged(f));
  for (const f of changed) await load.reloadFile(f.file);
  if (changed.length) logger.info(`${adapter.label}: ${real} added, ${changed.length} file(s) read`);
  return added;
}
