/**
 * How the exact queries x01–x27 and y01–y28 were found: identifiers and flags the user typed in one to four sessions
 * that at least six sessions print (code, logs, tracebacks), not already a query. Prints them, most printed first.
 * With words as arguments, prints each prompt holding them instead, to write locators from
 * (`node --import tsx bench/relevance/identifier-candidates.ts -- --read get_input`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus, RELEVANCE_DIR, type RelevanceFile } from './corpus.js';
const file = JSON.parse(readFileSync(join(RELEVANCE_DIR, 'queries.json'), 'utf8')) as RelevanceFile;
const used = new Set(file.queries.map((q) => q.query.toLowerCase()));
const lib = await loadCorpus();
const words = process.argv.slice(2).filter((a) => a !== '--');
if (words.length) {
  for (const w of words) {
    console.log(`##### ${w}`);
    for (const s of lib.sessions.values())
      for (const t of lib.turns.all(s))
        if (t.role === 'user' && t.kind === 'conversation') {
          const i = t.text.indexOf(w);
          if (i >= 0) console.log(`  ${s.id}: ${t.text.slice(Math.max(0, i - 120), i + 120).replace(/\s+/g, ' ')}`);
        }
  }
  await lib.close();
  process.exit(0);
}
const ID = /(?:--[a-z][a-z0-9-]+|\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b)/g;
const inPrompts = new Map<string, Set<string>>();
const anywhere = new Map<string, Set<string>>();
for (const s of lib.sessions.values()) {
  for (const t of lib.turns.all(s)) {
    for (const m of t.text.matchAll(ID)) {
      const k = m[0];
      (anywhere.get(k) ?? anywhere.set(k, new Set()).get(k)!).add(s.id);
      if (t.role === 'user' && t.kind === 'conversation') (inPrompts.get(k) ?? inPrompts.set(k, new Set()).get(k)!).add(s.id);
    }
  }
}
const out: string[] = [];
for (const [k, ps] of inPrompts) {
  const all = anywhere.get(k)!.size;
  if (ps.size >= 1 && ps.size <= 4 && all >= 6 && !used.has(k.toLowerCase())) out.push(`${all}\t${ps.size}\t${k}\t${[...ps].join(' ')}`);
}
out.sort((a, b) => Number(b.split('\t')[0]) - Number(a.split('\t')[0]));
console.log(out.join('\n'));
await lib.close();
