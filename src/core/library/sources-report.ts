/** `session-search sources`: every source, the folders it is read from (configured or imported) and how many sessions each gave. */
import { existsSync } from 'node:fs';
import { importedRoots } from '../ingest/imports.js';
import { SOURCES, type SourceRoot } from '../ingest/sources/registry.js';

export interface SourceReport {
  id: string;
  label: string;
  roots: { path: string; exists: boolean; imported: boolean; sessions: number }[];
  sessions: number;
}

/** The report for the `configured` roots and the exports imported in `dataDir`; `count` counts a library's sessions. */
export function sourcesReport(
  count: (where: { source: string; inside?: string }) => number,
  configured: readonly SourceRoot[],
  dataDir: string | undefined,
): SourceReport[] {
  const imported = importedRoots(dataDir);
  return SOURCES.map((adapter) => {
    const roots = [
      ...configured.filter((r) => r.source === adapter.id).map((r) => ({ ...r, imported: false })),
      ...imported.filter((r) => r.source === adapter.id).map((r) => ({ ...r, imported: true })),
    ];
    return {
      id: adapter.id,
      label: adapter.label,
      sessions: count({ source: adapter.id }),
      roots: roots.map((r) => ({
        path: r.path,
        exists: existsSync(r.path),
        imported: r.imported,
        sessions: count({ source: adapter.id, inside: r.path }),
      })),
    };
  });
}
