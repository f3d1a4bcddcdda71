/**
 * Walks that end: over random trees holding symlink loops (`self -> .`, links to a parent, to the root, to a sibling),
 * links into /proc, dangling links, links to a history file and unreadable folders, every history is listed exactly
 * once, by its real path, and the walk ends. Virtual file systems are never entered, and a bounded walk says where it
 * stopped.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { test } from 'node:test';
import { isVirtual, walkFiles } from '../../src/core/ingest/walk.js';
import { MemoryLogger } from '../../src/core/log.js';
import { tempDir } from '../helpers.js';

const HISTORY = '.aider.chat.history.md';
const accept = (file: string): boolean => file.endsWith(HISTORY);

type Link = { from: number; to: 'self' | 'parent' | 'root' | 'folder' | 'proc' | 'proc-self' | 'dangling' | 'history' | 'outside'; target: number };
interface Tree {
  parents: number[];
  histories: number[];
  links: Link[];
  unreadable: number[];
}

const tree: fc.Arbitrary<Tree> = fc.integer({ min: 1, max: 14 }).chain((n) =>
  fc.record({
    parents: fc.tuple(...Array.from({ length: n }, (_, i) => fc.integer({ min: 0, max: i }))),
    histories: fc.array(fc.integer({ min: 0, max: n }), { maxLength: 8 }),
    links: fc.array(
      fc.record({
        from: fc.integer({ min: 0, max: n }),
        to: fc.constantFrom('self', 'parent', 'root', 'folder', 'proc', 'proc-self', 'dangling', 'history', 'outside'),
        target: fc.nat(),
      }),
      { maxLength: 8 },
    ),
    unreadable: fc.array(fc.integer({ min: 1, max: n }), { maxLength: 2 }),
  }),
);

/** Builds `spec` on disk: folder 0 is the root, folder i (1…n) sits in folder parents[i-1]; answers each folder's path. */
function build(spec: Tree): { root: string; folders: string[]; outside: string } {
  const base = tempDir();
  const root = join(base, 'work');
  const outside = join(base, 'elsewhere');
  mkdirSync(outside);
  writeFileSync(join(outside, HISTORY), '# outside\n');
  const folders = [root];
  for (const [i, parent] of spec.parents.entries()) folders.push(join(folders[parent], `f${i + 1}`));
  for (const folder of folders) mkdirSync(folder, { recursive: true });
  const histories = [...new Set(spec.histories)];
  for (const h of histories) writeFileSync(join(folders[h], HISTORY), `# ${h}\n`);
  for (const [i, link] of spec.links.entries()) {
    const at = join(folders[link.from], `link${i}`);
    const target = {
      self: '.',
      parent: '..',
      root,
      folder: folders[link.target % folders.length],
      proc: '/proc',
      'proc-self': '/proc/self/root',
      dangling: join(root, 'missing', String(i)),
      history: histories.length ? join(folders[histories[link.target % histories.length]], HISTORY) : root,
      outside,
    }[link.to];
    symlinkSync(target, at);
  }
  return { root, folders, outside };
}

test('property: over trees with symlink loops, /proc links, dangling links and unreadable folders, each history is listed once and the walk ends', async () => {
  const asRoot = process.getuid?.() === 0; // (a folder without permissions is still readable by root)
  await fc.assert(
    fc.asyncProperty(tree, async (spec) => {
      const { folders } = build(spec);
      const locked = asRoot ? [] : spec.unreadable.map((u) => folders[u]);
      for (const folder of locked) chmodSync(folder, 0o000);
      try {
        const listed = await walkFiles(folders[0], { logger: new MemoryLogger(), accept });
        const expected = [...new Set(spec.histories)]
          .map((h) => join(realpathSync(folders[h]), HISTORY))
          .filter((file) => !locked.some((l) => !relative(realpathSync(l), file).startsWith('..')));
        assert.deepEqual([...listed].sort(), expected.sort());
        assert.equal(new Set(listed).size, listed.length, 'a history listed twice');
      } finally {
        for (const folder of locked) chmodSync(folder, 0o700);
      }
    }),
    { numRuns: 150, seed: 81 },
  );
});

test('a loop beside a history (self -> ., sub/up -> ..) and a monorepo link to the root read it once', async () => {
  const root = join(tempDir(), 'repo');
  mkdirSync(join(root, 'sub', 'src'), { recursive: true });
  writeFileSync(join(root, HISTORY), '# mine\n');
  symlinkSync('.', join(root, 'self'));
  symlinkSync('..', join(root, 'sub', 'up'));
  symlinkSync('../..', join(root, 'sub', 'src', 'root'));
  const listed = await walkFiles(root, { logger: new MemoryLogger(), accept });
  assert.deepEqual(listed, [join(realpathSync(root), HISTORY)]);
});

test('virtual file systems are never entered: /proc, /sys, /dev as roots or below one', async () => {
  for (const path of ['/proc', '/sys', '/dev', '/proc/self']) {
    const logger = new MemoryLogger();
    assert.deepEqual(await walkFiles(path, { logger, accept: () => true }), []);
  }
  assert.ok(isVirtual('/proc/1/root'));
  assert.ok(!isVirtual(realpathSync(tempDir())));
});

test('a bounded walk stops after its folders and says so, with what to do', async () => {
  const root = tempDir();
  for (let i = 0; i < 30; i++) mkdirSync(join(root, `d${String(i).padStart(2, '0')}`, 'inner'), { recursive: true });
  writeFileSync(join(root, HISTORY), '# top\n');
  const logger = new MemoryLogger();
  const listed = await walkFiles(root, { logger, accept, maxFolders: 10, cutMessage: 'open a project folder' });
  assert.deepEqual(listed, [join(realpathSync(root), HISTORY)], 'what the top folder holds is still read');
  assert.ok(
    logger.lines.some((l) => /the walk stopped after 10 folders; open a project folder/.test(l)),
    logger.lines.join('\n'),
  );
  const stopped = new AbortController();
  stopped.abort();
  assert.deepEqual(await walkFiles(root, { logger, accept, signal: stopped.signal }), [], 'a stopped walk lists nothing more');
});
