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
import type { LibraryOptions } from './options.js';
import { importedRoots } from '../ingest/imports.js';

/**
 * Adds roots to a running library, each resolved (undefined where its folder does not exist); the roots of one folder
 * (a workspace's SpecStory and Aider histories) are walked once together.
 */
export async function addRoots(load: Loader, catalog: SessionCatalog, roots: readonly SourceRoot[], logger: Logger): Promise<(SourceRoot | undefined)[]> {
  const out: (SourceRoot | undefined)[] = [];
  const fresh: SourceRoot[] = [];
  for (const root of roots) {
    if (!sourceById(root.source)) throw new SessionSearchError('INVALID_ARGUMENT', `Unknown source "${root.source}".`);
    const real = await realpath(root.path).catch(() => undefined);
    const known = real === undefined ? undefined : [...load.roots, ...fresh].find((r) => r.source === root.source && r.path === real);
    if (real === undefined || known) {
      out.push(known);
      continue;
    }
    const added: SourceRoot = { source: root.source, path: real };
    fresh.push(added);
    out.push(added);
  }
  if (!fresh.length) return out;
  // before the roots the library was configured with, whether or not the load has resolved those yet: a client's
  // own histories are walked first
  load.roots.unshift(...fresh);
  // a load under way reads them if it had not walked the roots yet; what it did not read is read here, after it
  await load.loaded;
  const { plan } = await scanRoots(fresh, logger, (a, f, r) => load.accepts(a, f, r));
  for (const { root, files } of plan) {
    const changed = files.filter((f) => !catalog.unchanged(f));
    for (const f of changed) await load.reloadFile(f.file);
    if (changed.length) logger.info(`${sourceById(root.source)!.label}: ${root.path} added, ${changed.length} file(s) read`);
  }
  return out;
}

export async function addRoot(load: Loader, catalog: SessionCatalog, root: SourceRoot, logger: Logger): Promise<SourceRoot | undefined> {
  return (await addRoots(load, catalog, [root], logger))[0];
}

/**
 * The roots a library starts with: the configured ones, then the exports imported into its data folder
 * (core/ingest/imports.ts), each resolved; those that do not exist (yet) apart, said in the log.
 */
export async function resolveConfiguredRoots(
  options: Pick<LibraryOptions, 'roots' | 'dataDir'>,
  logger: Logger,
): Promise<{ found: SourceRoot[]; missing: SourceRoot[] }> {
  const found: SourceRoot[] = [];
  const missing: SourceRoot[] = [];
  const imported = importedRoots(options.dataDir).filter((i) => !options.roots.some((r) => r.source === i.source && r.path === i.path));
  for (const root of [...options.roots, ...imported]) {
    const adapter = sourceById(root.source);
    if (!adapter) throw new SessionSearchError('INVALID_ARGUMENT', `Unknown source "${root.source}".`);
    const real = await realpath(root.path).catch(() => undefined);
    if (real) found.push({ source: root.source, path: real });
    else {
      logger.info(`${adapter.label}: ${root.path} does not exist, nothing to read`);
      missing.push(root);
    }
  }
  return { found, missing };
}
