/** The order a load reads files in: newest first, so that what people look for most is searchable soonest. */
import { relative, sep } from 'node:path';
import { commitBatches, type FileState } from '../ingest/file-state.js';
import type { SourceRoot } from '../ingest/sources/registry.js';

/**
 * The commit groups of every root, newest first: files of one top-level folder stay together (cross-file fix-ups need
 * them), newest first within it, groups in the order of their newest file. Sources are interleaved by that order; the
 * roots of one source keep their configured order (a session id claimed by two files goes to the root named first,
 * whatever their times).
 */
export function newestFirst(changed: { root: SourceRoot; files: FileState[] }[], maxBytes?: number): { root: SourceRoot; batch: FileState[] }[] {
  const newest = (fs: FileState[]): number => fs.reduce((m, f) => Math.max(m, f.mtimeMs), 0);
  const bySource = new Map<string, { root: SourceRoot; batch: FileState[]; newest: number }[]>();
  for (const { root, files } of changed) {
    const folders = new Map<string, FileState[]>();
    for (const f of files) {
      const top = relative(root.path, f.file).split(sep)[0];
      folders.set(top, [...(folders.get(top) ?? []), f]);
    }
    const ordered = [...folders.values()].map((fs) => fs.sort((a, b) => b.mtimeMs - a.mtimeMs)).sort((a, b) => newest(b) - newest(a));
    const queue = bySource.get(root.source) ?? [];
    for (const batch of commitBatches(root.path, ordered.flat(), maxBytes)) queue.push({ root, batch, newest: newest(batch) });
    bySource.set(root.source, queue);
  }
  const queues = [...bySource.values()];
  const out: { root: SourceRoot; batch: FileState[] }[] = [];
  for (;;) {
    let pick: (typeof queues)[number] | undefined;
    for (const q of queues) if (q.length && (!pick || q[0].newest > pick[0].newest)) pick = q;
    if (!pick) return out;
    out.push(pick.shift()!);
  }
}

/** The files of the batches, one after another: the order they are read in. */
export function order(batches: { root: SourceRoot; batch: FileState[] }[]): { root: SourceRoot; state: FileState }[] {
  return batches.flatMap(({ root, batch }) => batch.map((state) => ({ root, state })));
}
