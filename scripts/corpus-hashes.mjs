#!/usr/bin/env node
/**
 * `record` hashes every file of the sample transcripts before the test suite; `verify` hashes them again after it and
 * fails if any was changed, added or removed: the product only ever reads sources. npm test runs both around the suite.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = realpathSync(resolve(root, '..', 'shared', 'corpus'));
const record = join(root, 'test-results', 'corpus-hashes.json');

function hashes() {
  const out = {};
  for (const name of readdirSync(corpus, { recursive: true, withFileTypes: true })) {
    if (!name.isFile()) continue;
    const file = join(name.parentPath ?? name.path, name.name);
    out[file.slice(corpus.length + 1)] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return out;
}

const mode = process.argv[2];
if (mode === 'record') {
  mkdirSync(dirname(record), { recursive: true });
  const now = hashes();
  writeFileSync(record, JSON.stringify(now));
  console.log(`sources: ${Object.keys(now).length} sample transcript files hashed before the tests`);
} else if (mode === 'verify') {
  const before = JSON.parse(readFileSync(record, 'utf8'));
  const after = hashes();
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => before[f] !== after[f]);
  if (changed.length) {
    console.error(`sources were modified by the test suite: ${changed.slice(0, 20).join(', ')}`);
    process.exit(1);
  }
  console.log(`sources: all ${Object.keys(after).length} sample transcript files unchanged after the tests`);
} else {
  console.error('usage: corpus-hashes.mjs record|verify');
  process.exit(2);
}
