/** Worker threads started the same way from the bundles (a `.cjs` beside them) and from source (TypeScript via tsx). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** The script named `name` in `dir`: the bundle (`name.cjs` or `name.mjs`) or, when run from source, the TypeScript file. */
export function threadScript(dir: string, name: string): string | undefined {
  return [`${name}.cjs`, `${name}.mjs`, `${name}.ts`].map((file) => join(dir, file)).find((path) => existsSync(path));
}

/** A thread running the script; from source (tests run TypeScript through tsx) the thread registers tsx first. */
export function startWorker(script: string, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  if (!script.endsWith('.ts')) return new Worker(script, { workerData, resourceLimits });
  const url = JSON.stringify(pathToFileURL(script).href);
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${url}); });`, { eval: true, workerData, resourceLimits });
}
