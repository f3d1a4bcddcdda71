/** A walk lists a root's files in one order, whether its folders are listed in this thread or through the thread pool. */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import fc from 'fast-check';
import { test } from 'node:test';
import { childPath, walkFiles } from '../../src/core/ingest/walk.js';
import { MemoryLogger } from '../../src/core/log.js';
import { tempDir } from '../helpers.js';

/** A pseudo-random tree of folders and files (seeded: a failure can be replayed), with names that sort in odd ways. */
function randomTree(seed: number): { root: string; files: number } {
  let state = seed;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n); // the high bits: an LCG's low bits repeat with a short period
  };
  const names = ['a', 'B', 'z', '10', '9', 'é', '.hidden', 'node_modules', 'ünï', 'a b', 'x-1', 'x_1'];
  const root = tempDir();
  let files = 0;
  const fill = (dir: string, depth: number): void => {
    const count = 1 + next(6);
    for (let i = 0; i < count; i++) {
      const name = `${names[next(names.length)]}${next(2) ? next(3) : ''}`;
      const path = join(dir, name);
      if (depth < 4 && next(3) === 0) {
        mkdirSync(path, { recursive: true });
        fill(path, depth + 1);
      } else {
        writeFileSync(`${path}.jsonl`, '{}\n');
        files++;
      }
    }
  };
  fill(root, 0);
  return { root, files };
}

test('every tree is walked to the same files in the same order, folders listed in this thread or through the pool', async () => {
  for (let seed = 1; seed <= 40; seed++) {
    const { root, files } = randomTree(seed);
    symlinkSync('/etc', join(root, 'out-of-root'));
    const logger = new MemoryLogger();
    const here = await walkFiles(root, { logger, accept: (f) => f.endsWith('.jsonl') });
    const pooled = await walkFiles(root, { logger: new MemoryLogger(), accept: (f) => f.endsWith('.jsonl'), pooled: true });
    assert.deepEqual(here, pooled, `seed ${seed}`);
    assert.ok(here.length > 0 && here.length <= files, `seed ${seed}: ${here.length} of ${files}`);
    // folders come one after the other, each in name order, and never-walked folders are left out
    assert.ok(!here.some((f) => f.includes('/node_modules/')), `seed ${seed}`);
    const sorted = [...here].sort((a, b) => {
      const pa = a.slice(root.length + 1).split('/');
      const pb = b.slice(root.length + 1).split('/');
      for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
      return pa.length - pb.length;
    });
    assert.deepEqual(here, sorted, `seed ${seed}`);
    assert.ok(
      logger.lines.some((l) => l.includes('out-of-root') && l.includes('outside')),
      `seed ${seed}`,
    );
  }
});

test('a listed name under a folder the walk made is the path join gives, for any such folder and name', () => {
  const segment = fc.stringMatching(/^[^/\\\0]{1,8}$/).filter((n) => n !== '.' && n !== '..');
  fc.assert(
    fc.property(fc.array(segment, { maxLength: 5 }), segment, (parts, name) => {
      // a real path: absolute, normal (the root itself ends with the separator)
      const dir = normalize(sep + parts.join(sep));
      assert.equal(childPath(dir, name), join(dir, name));
    }),
    { numRuns: 2000 },
  );
});
