/**
 * What a snapshot's reader checks before it is used (store/snapshot.ts): the index's tables agree in size, posting
 * offsets never go backwards, and every session's turns lie where a read can reach. A snapshot that fails is a
 * SnapshotError: discarded, logged, rebuilt.
 */
import type { RestoredState } from '../index/engine.js';
import type { TermTable } from '../index/term-table.js';
import type { HeaderSessions } from './header-columns.js';

export class SnapshotError extends Error {}

/** An archive entry's file name. */
export const ENTRY_NAME = /^[0-9a-f]{40}\.jsonl$/;

/** Cheap structural checks, so a damaged snapshot is rejected at start-up rather than failing a query later. */
export function checkConsistent(index: RestoredState & { terms: TermTable }, sessions: HeaderSessions, turnsEnd: number): void {
  const docs = index.keys.length;
  const terms = index.terms.count;
  if (index.df.length !== terms) throw new SnapshotError('term table and frequencies disagree');
  if (index.lengths.length !== docs * 3 || index.recency.length !== docs || index.docTermStart.length !== docs)
    throw new SnapshotError('document tables disagree');
  for (const seg of index.segments) {
    if (
      seg.terms > terms ||
      seg.offsets.length !== seg.terms + 1 ||
      seg.offsets[0] !== 0 ||
      seg.offsets[seg.terms] !== seg.docs.length ||
      seg.docs.length !== seg.freqs.length
    ) {
      throw new SnapshotError('a posting segment is damaged');
    }
    // Every loop over postings trusts these: offsets that go backwards would make a query read past its arrays. The
    // postings themselves passed their checksums: they are the values written, which were in range.
    for (let t = 0; t < seg.terms; t++) if (seg.offsets[t] > seg.offsets[t + 1]) throw new SnapshotError('a posting segment is damaged (offsets)');
  }
  for (let d = 0; d < docs; d++) {
    const start = index.docTermStart[d];
    if (start > index.docTerms.length || (d > 0 && start < index.docTermStart[d - 1])) throw new SnapshotError('document term lists are damaged');
  }

  for (let i = 0; i < sessions.count; i++) {
    const { at: [at, length] = [-1, 0], entry } = sessions.turns(i);
    if (entry !== undefined) {
      if (!ENTRY_NAME.test(entry)) throw new SnapshotError(`turns of ${sessions.id(i)} point outside the archive`);
      continue;
    }
    if (at < 0 || at + length > turnsEnd) throw new SnapshotError(`turns of ${sessions.id(i)} lie outside the turns region`);
  }
}
