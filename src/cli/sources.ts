/** `session-search sources` and `session-search import`: where each source was looked for, and adding exports. */
import { existsSync } from 'node:fs';
import { addImport, importedRoots } from '../core/ingest/imports.js';
import { SOURCES, type SourceRoot } from '../core/ingest/sources/registry.js';
import type { SessionLibrary } from '../core/library.js';

export interface SourceReport {
  id: string;
  label: string;
  roots: { path: string; exists: boolean; imported: boolean; sessions: number }[];
  sessions: number;
}

/** Every source, the folders it was read from (configured or imported) and how many sessions each gave. */
export function sourcesReport(library: SessionLibrary, configured: readonly SourceRoot[], dataDir: string): SourceReport[] {
  const imported = importedRoots(dataDir);
  return SOURCES.map((adapter) => {
    const roots = [
      ...configured.filter((r) => r.source === adapter.id).map((r) => ({ ...r, imported: false })),
      ...imported.filter((r) => r.source === adapter.id).map((r) => ({ ...r, imported: true })),
    ];
    return {
      id: adapter.id,
      label: adapter.label,
      sessions: library.countSessions({ source: adapter.id }),
      roots: roots.map((r) => ({
        path: r.path,
        exists: existsSync(r.path),
        imported: r.imported,
        sessions: library.countSessions({ source: adapter.id, inside: r.path }),
      })),
    };
  });
}

export function renderSources(report: SourceReport[]): string {
  const lines: string[] = [];
  for (const source of report) {
    lines.push(`${source.label} (${source.id}): ${source.sessions} session${source.sessions === 1 ? '' : 's'}`);
    if (!source.roots.length) lines.push('  no folder (import an export with `session-search import <file>`)');
    for (const root of source.roots)
      lines.push(
        `  ${root.path}${root.imported ? ' (imported)' : ''}: ${root.exists ? `${root.sessions} session${root.sessions === 1 ? '' : 's'}` : 'not found'}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

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
