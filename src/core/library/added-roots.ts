/**
 * Roots added while a library runs: the SpecStory and Aider histories of a window's workspace folders, registered with
 * the engine by the window that opens them. Each is resolved, joined to the loader's roots (so live reloads and root
 * checks know it), and its changed files are read one by one once the first load is done. Also: which files under the
 * roots changed since they were read (what a watcher starting late asks).
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
import { isInside } from '../ingest/walk.js';

/**
 * Adds roots to a running library, each resolved (undefined where its folder does not exist); the roots of one folder
 * (a workspace's SpecStory and Aider histories) are walked once together.
 */
export async function addRoots(
  load: Loader,
  catalog: SessionCatalog,
  roots: readonly SourceRoot[],
  logger: Logger,
  signal?: AbortSignal,
): Promise<(SourceRoot | undefined)[]> {
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
  // a load under way reads them if it had not walked the roots yet; what it did not read is read here, after it (a
  // command's answer waits for this: walking again what the load has just read cost it a walk's turns of the event loop)
  await load.loaded;
  const unread = fresh.filter((root) => !load.readAll(root));
  if (!unread.length) return out;
  const { plan } = await scanRoots(unread, logger, (a, f, r, folder) => load.accepts(a, f, r, folder), signal);
  if (signal?.aborted) {
    logger.info(`${unread.map((r) => r.path).join(', ')}: the walk stopped, no client names the folder any more`);
    for (const root of unread) if (load.roots.includes(root)) load.roots.splice(load.roots.indexOf(root), 1);
    return out.map((r) => (r && unread.includes(r) ? undefined : r));
  }
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

/**
 * Files that changed, appeared or vanished since they were read (under `roots`, by default the loader's): a watcher
 * that starts after a load asks, so that nothing written between the load's walk and the watcher's start is missed;
 * `roots`: those of a watcher started later (a workspace folder watched after it was read).
 */
export async function changedFiles(load: Loader, catalog: SessionCatalog, roots: readonly SourceRoot[] = load.roots): Promise<string[]> {
  // (at 50,000 sessions that walk held the main thread about half a second after a warm start's first answers)
  const { plan, seen } = await load.walk(roots);
  const out = plan.flatMap(({ files }) => files.filter((f) => !catalog.unchanged(f)).map((f) => f.file));
  for (const [file, known] of catalog.byFile) {
    if (seen.has(file) || !roots.some((r) => r.source === known.root.source && isInside(r.path, file))) continue;
    if (known.ids.some((id) => catalog.sessions.get(id)?.sourceDeleted !== true)) out.push(file);
  }
  return out;
}
