/** `session-search import`: adding exports. */
import { addImport } from '../core/ingest/imports.js';
import { SOURCES, type SourceRoot } from '../core/ingest/sources/registry.js';

/** Records the exports at `path` and says what the next run reads. */
export async function importExports(dataDir: string, path: string): Promise<{ text: string; value: Awaited<ReturnType<typeof addImport>> }> {
  const value = await addImport(dataDir, path);
  const line = (r: SourceRoot): string => `  ${SOURCES.find((s) => s.id === r.source)?.label ?? r.source}: ${r.path}`;
  const text = [
    ...(value.added.length ? ['Imported (read from now on, archived like any other session):', ...value.added.map(line)] : []),
    ...(value.known.length ? ['Already imported:', ...value.known.map(line)] : []),
    ...(value.skipped.length ? ['Skipped (not an export Session Search reads):', ...value.skipped.map((f) => `  ${f}`)] : []),
  ].join('\n');
  return { text: `${text}\n`, value };
}
