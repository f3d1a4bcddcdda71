/**
 * `npm run bench:calibrate`: fits search_context's score on the judged set. Every block search_context would consider
 * (a turn holding a query word, in the 50 best sessions) of every query of the tuning split is labelled relevant when
 * its session is graded 2 or 3, and a logistic function of its features is fitted by gradient descent; the weights go
 * into CALIBRATION (src/core/answer/context-search.ts). Then, on the test split, the precision of blocks by score band
 * with the weights in the code (seed 003's table: ≥ 0.9 highly relevant, 0.8–0.9 relevant, 0.7–0.8 somewhat) beside the
 * old score (the IDF share of the query a block holds, times how well its session ranks).
 */
import { ShortForms } from '../../src/core/index/short-forms.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calibratedScore, CALIBRATION, contextCandidates, type BlockFeatures } from '../../src/core/answer/context-search.js';
import type { LibraryView } from '../../src/core/answer/view.js';
import { WorktreeRoots } from '../../src/core/answer/worktrees.js';
import { parseQuery } from '../../src/core/index/query.js';
import { isTuning } from './metrics.js';
import { TagStore } from '../../src/core/store/tags.js';
import { PreferenceStore } from '../../src/core/store/preferences.js';
import { loadCorpus, RELEVANCE_DIR, type RelevanceFile } from './corpus.js';

const file = JSON.parse(readFileSync(join(RELEVANCE_DIR, 'queries.json'), 'utf8')) as RelevanceFile;
const judgments = JSON.parse(readFileSync(join(RELEVANCE_DIR, 'judgments.json'), 'utf8')) as Record<string, Record<string, number>>;
const library = await loadCorpus();
const sessions = [...library.sessions.values()];
const view: LibraryView = {
  sessions: library.sessions,
  turns: library.turns,
  index: library.index,
  roots: library.roots,
  worktrees: new WorktreeRoots(),
  decisionsOf: (s) => s.decisions,
  preferencesOf: (s) => s.preferences,
  tags: new TagStore(undefined),
  preferences: new PreferenceStore(undefined),
  semantic: library.semantic,
  titles: () => {
    throw new Error('not used');
  },
  shortForms: () => new ShortForms(sessions.flatMap((s) => s.acronyms ?? [])),
};

type Sample = { f: BlockFeatures; relevant: boolean };
function samples(tuning: boolean): Sample[] {
  const out: Sample[] = [];
  for (const q of file.queries.filter((x) => isTuning(x) === tuning))
    for (const { block, features } of contextCandidates(view, parseQuery(q.query), {}, {}))
      out.push({ f: features, relevant: (judgments[q.id]?.[block.sessionId] ?? 0) >= 2 });
  return out;
}

const KEYS = ['coverage', 'sessionShare', 'reciprocalRank', 'conversation'] as const;
function fit(data: Sample[]): typeof CALIBRATION {
  const w = { coverage: 0, sessionShare: 0, reciprocalRank: 0, conversation: 0, bias: 0 };
  for (let epoch = 0; epoch < 4000; epoch++) {
    const grad = { coverage: 0, sessionShare: 0, reciprocalRank: 0, conversation: 0, bias: 0 };
    for (const { f, relevant } of data) {
      const err = calibratedScore(f, w) - (relevant ? 1 : 0);
      for (const k of KEYS) grad[k] += err * f[k];
      grad.bias += err;
    }
    for (const k of [...KEYS, 'bias'] as const) w[k] -= (1.5 * grad[k]) / data.length;
  }
  return w;
}

const oldScore = (f: BlockFeatures): number => f.coverage * (0.85 + 0.15 * f.sessionShare);
function bands(data: Sample[], score: (f: BlockFeatures) => number): string {
  const band = (lo: number, hi: number): string => {
    const inBand = data.filter((d) => score(d.f) >= lo && score(d.f) < hi);
    const right = inBand.filter((d) => d.relevant).length;
    return inBand.length ? `${((100 * right) / inBand.length).toFixed(0)}% of ${inBand.length}` : '— (none)';
  };
  return [band(0.9, 2), band(0.8, 0.9), band(0.7, 0.8), band(0.7, 2), band(0, 0.7)].join(' | ');
}

const tune = samples(true);
const test = samples(false);
const fitted = fit(tune);
console.log(`Fitted on the tuning split (${tune.length} blocks, ${tune.filter((s) => s.relevant).length} relevant):`);
console.log(JSON.stringify(Object.fromEntries(Object.entries(fitted).map(([k, v]) => [k, Math.round(v * 10) / 10]))));
console.log(`\nTest split (${test.length} blocks, ${test.filter((s) => s.relevant).length} relevant): precision by score band\n`);
console.log('| score | ≥ 0.9 | 0.8–0.9 | 0.7–0.8 | ≥ 0.7 (returned by default) | < 0.7 (filtered) |');
console.log('|---|---|---|---|---|---|');
console.log(`| calibrated (weights in the code) | ${bands(test, (f) => calibratedScore(f))} |`);
console.log(`| before: share of the query held | ${bands(test, oldScore)} |`);
await library.close();
