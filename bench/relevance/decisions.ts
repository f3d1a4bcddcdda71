/**
 * `npm run bench:decisions`: how right the decision rules (src/core/answer/decisions.ts) are on statements a person
 * labelled in the real transcripts (decision-labels.json): precision of what they take, recall of what they miss.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDecision, sentences } from '../../src/core/ingest/decisions.js';
import { openCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import type { SourceRoot } from '../../src/core/ingest/sources/registry.js';

interface Label {
  turn: string;
  sentence: string;
  decision: boolean;
  split: 'tuning' | 'held-out';
}

// (the real path: some sources name their sessions by where they are)
const corpus = realpathSync(resolve(import.meta.dirname, '..', '..', '..', 'shared', 'corpus'));
const roots: SourceRoot[] = [
  { source: 'codearchitect', path: join(corpus, 'codearchitect', 'sessions') },
  { source: 'claude-code', path: join(corpus, 'claude-code') },
  { source: 'codex', path: join(corpus, 'codex') },
  { source: 'gemini', path: join(corpus, 'gemini') },
  { source: 'opencode', path: join(corpus, 'opencode') },
  { source: 'specstory', path: join(corpus, 'specstory') },
  { source: 'aider', path: join(corpus, 'aider') },
  { source: 'copilot-chat', path: join(corpus, 'copilot-chat') },
  { source: 'cursor', path: join(corpus, 'cursor') },
];
const { labels } = JSON.parse(readFileSync(join(import.meta.dirname, 'decision-labels.json'), 'utf8')) as { labels: Label[] };
const library = openCore({ roots, logger: new MemoryLogger(), snapshot: false, env: {} });
await library.load();
const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 12);
for (const split of ['tuning', 'held-out'] as const) {
  const set = labels.filter((l) => l.split === split);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let missing = 0;
  const bySource = new Map<string, [number, number]>();
  for (const label of set) {
    const id = label.turn.slice(0, label.turn.lastIndexOf('#'));
    const session = library.sessions.get(id);
    const turn = session && library.turns.all(session).find((t) => t.id === label.turn);
    const sentence = turn && sentences(turn.text).find((s) => hash(s) === label.sentence);
    if (!turn || !sentence || (turn.role !== 'user' && turn.role !== 'assistant')) {
      missing++;
      continue;
    }
    const taken = isDecision(sentence, turn.role);
    const source = label.turn.slice(0, label.turn.indexOf(':'));
    const counts = bySource.get(source) ?? [0, 0];
    if (taken) bySource.set(source, [counts[0] + (label.decision ? 1 : 0), counts[1] + 1]);
    if (taken && label.decision) tp++;
    else if (taken) fp++;
    else if (label.decision) fn++;
  }
  const precision = tp / Math.max(1, tp + fp);
  console.log(
    `${split}: ${set.length} labelled statements (${set.filter((l) => l.decision).length} decisions; ${missing} no longer found), ` +
      `taken ${tp + fp}: precision ${precision.toFixed(2)} (${tp}/${tp + fp})` +
      (split === 'tuning' ? `, recall ${(tp / Math.max(1, tp + fn)).toFixed(2)} (${tp}/${tp + fn})` : ' (every statement taken was labelled: no recall)'),
  );
  console.log(`  by source: ${[...bySource].map(([source, [right, taken]]) => `${source} ${right}/${taken}`).join(', ')}`);
}
await library.close();
