/** The sessions behind a file and its lines: the real Claude Code samples, and sessions written here for the hard cases. */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LibraryCore } from '../../src/core/library/open.js';
import { decodeTouch } from '../../src/core/files/touches.js';
import type { StoredHeader } from '../../src/core/store/compact-header.js';
import { CORPUS, loadLibrary, snapshotHeader, snapshotSessions, tempDir } from '../helpers.js';

describe('file history over the real Claude Code samples', () => {
  let library: LibraryCore;
  before(async () => {
    ({ library } = await loadLibrary([{ source: 'claude-code', path: join(CORPUS, 'claude-code') }]));
  });
  after(() => library.close());

  test('every file a session touched lists that session, with the touches of that turn', () => {
    let checked = 0;
    for (const session of library.sessions.values()) {
      for (const encoded of session.files ?? []) {
        const touch = decodeTouch(encoded)!;
        assert.ok(touch, encoded);
        const answer = library.fileHistory({ path: touch.path, limit: 1000 });
        const found = answer.sessions.find((s) => s.id === session.id);
        assert.ok(found, `${session.id} touched ${touch.path} (${touch.kind}) but file_history does not list it`);
        assert.ok(
          found.touches.some((t) => t.turn === `${session.id}#${touch.turn}` && t.kind === touch.kind),
          `${touch.path}: turn ${touch.turn} missing`,
        );
        assert.equal(answer.total, answer.sessions.length);
        checked++;
      }
    }
    assert.ok(checked > 100, `only ${checked} touches in the samples`);
  });

  test('a file the samples edit: newest first, its edits with the text written and the request behind them', async () => {
    const edited = [...library.sessions.values()].flatMap((s) => (s.files ?? []).map((f) => decodeTouch(f)!)).find((t) => t.kind === 'edit')!;
    const answer = library.fileHistory({ path: edited.path });
    assert.ok(answer.count >= 1);
    const dates = answer.sessions.map((s) => s.date);
    assert.deepEqual(dates, [...dates].sort().reverse());
    const edit = answer.sessions.flatMap((s) => s.touches).find((t) => t.kind === 'edit')!;
    assert.ok(edit.hunk && edit.hunk.length > 0);
    assert.ok(answer.sessions[0].request, 'the prompt that led to the touch');
    // the turn named is one a reader opens
    const page = await library.read(edit.turn);
    assert.ok(page.found && page.text.includes('Edit'), edit.turn);
  });

  test('bad arguments are refused with the reason', () => {
    assert.throws(() => library.fileHistory({ path: '' }), /path is required/);
    assert.throws(() => library.fileHistory({ path: '/x', lines: '80-40' }), /lines must be/);
    assert.throws(() => library.fileHistory({ path: '/x', limit: 0 }), /limit must be/);
    assert.throws(() => library.fileHistory({ path: '/x', since: 'yesterday-ish' }), /since must be a date/);
    assert.equal(library.fileHistory({ path: '/nowhere/at/all.ts' }).total, 0);
  });
});

/** One Claude Code transcript: a prompt, then tool calls (each answered), in `cwd`. */
function claudeSession(root: string, id: string, cwd: string, at: string, prompt: string, calls: { name: string; input: Record<string, unknown> }[]): void {
  const records: unknown[] = [{ type: 'user', uuid: `${id}-0`, sessionId: id, cwd, timestamp: at, message: { role: 'user', content: prompt } }];
  calls.forEach((call, i) => {
    const time = new Date(Date.parse(at) + (i + 1) * 1000).toISOString();
    const base = { sessionId: id, cwd, timestamp: time };
    records.push({
      ...base,
      type: 'assistant',
      uuid: `${id}-a${i}`,
      message: { id: `m${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: call.name, input: call.input }] },
    });
    records.push({
      ...base,
      type: 'user',
      uuid: `${id}-r${i}`,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'done' }] },
    });
  });
  records.push({
    type: 'assistant',
    uuid: `${id}-end`,
    sessionId: id,
    cwd,
    timestamp: at,
    message: { id: 'end', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
  });
  mkdirSync(join(root, 'proj'), { recursive: true });
  writeFileSync(join(root, 'proj', `${id}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
}

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('which session wrote these lines', () => {
  const root = tempDir();
  const repo = tempDir();
  const worktree = tempDir();
  const file = join(repo, 'src', 'retry.ts');
  const original = ['export function retry(n: number) {', '  for (let i = 0; i < n; i++) {', '    attempt(i);', '  }', '}', '', 'export const LIMIT = 5;'].join(
    '\n',
  );
  const backoff = ['  for (let i = 0; i < n; i++) {', '    await sleep(2 ** i * 100);', '    attempt(i);', '  }'].join('\n');
  const config = join(repo, 'src', 'config.ts');
  const configText = ['export const db = {', "  host: 'db.internal',", "  password: 'Vx7qTr9Lm2kPz',", '  pool: 4,', '};', ''].join('\n');
  let library: LibraryCore;

  before(async () => {
    mkdirSync(join(repo, '.git', 'worktrees', 'wt'), { recursive: true });
    mkdirSync(join(repo, 'src'), { recursive: true });
    mkdirSync(join(worktree, 'src'), { recursive: true });
    writeFileSync(join(worktree, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'wt')}\n`);
    claudeSession(root, uuid(1), repo, '2026-05-01T10:00:00Z', 'write a retry helper', [{ name: 'Write', input: { file_path: file, content: original } }]);
    claudeSession(root, uuid(2), repo, '2026-05-02T10:00:00Z', 'make the retry loop back off', [
      { name: 'Edit', input: { file_path: file, old_string: '  for (let i = 0; i < n; i++) {\n    attempt(i);\n  }', new_string: backoff } },
    ]);
    claudeSession(root, uuid(3), repo, '2026-05-03T10:00:00Z', 'what does retry do?', [{ name: 'Read', input: { file_path: 'src/retry.ts' } }]);
    // a worktree of the same repository edits the same file by its worktree path
    claudeSession(root, uuid(4), worktree, '2026-05-04T10:00:00Z', 'raise the limit in the worktree', [
      { name: 'Edit', input: { file_path: join(worktree, 'src', 'retry.ts'), old_string: 'export const LIMIT = 5;', new_string: 'export const LIMIT = 8;' } },
    ]);
    // a rename: the old path deleted, the new one written
    claudeSession(root, uuid(5), repo, '2026-05-05T10:00:00Z', 'rename the old helper', [
      { name: 'Bash', input: { command: 'git mv src/old-retry.ts src/retry-old.ts' } },
    ]);
    // an agent writes a configuration holding a secret: the archive keeps the edit masked, the file keeps the secret
    claudeSession(root, uuid(6), repo, '2026-05-06T10:00:00Z', 'add the database settings', [
      { name: 'Write', input: { file_path: config, content: configText } },
    ]);
    writeFileSync(config, configText);
    // on disk now: the back-off edit, the worktree's limit merged, and one line changed by hand afterwards
    const now = original
      .replace('  for (let i = 0; i < n; i++) {\n    attempt(i);\n  }', backoff)
      .replace('LIMIT = 5', 'LIMIT = 8')
      .replace('    attempt(i);', '    attempt(i, { verbose: true }); // by hand');
    writeFileSync(file, now);
    ({ library } = await loadLibrary([{ source: 'claude-code', path: root }]));
  });
  after(() => library.close());

  test('the sessions that wrote, edited and read the file, the worktree among them, newest first', () => {
    const answer = library.fileHistory({ path: file });
    assert.deepEqual(
      answer.sessions.map((s) => [s.id, s.touches.map((t) => t.kind).join()]),
      [
        [`claude-code:${uuid(4)}`, 'edit'],
        [`claude-code:${uuid(3)}`, 'read'],
        [`claude-code:${uuid(2)}`, 'edit'],
        [`claude-code:${uuid(1)}`, 'write'],
      ],
    );
    assert.equal(answer.sessions[2].request, 'make the retry loop back off');
    assert.match(answer.sessions[2].touches[0].hunk ?? '', /await sleep/);
    // asked by the worktree's path, the same file of the same repository
    assert.equal(library.fileHistory({ path: join(worktree, 'src', 'retry.ts') }).total, 4);
    // asked relative to a folder
    assert.equal(library.fileHistory({ path: 'src/retry.ts', cwd: repo }).total, 4);
  });

  test('a rename names both paths', () => {
    assert.deepEqual(
      library.fileHistory({ path: join(repo, 'src', 'old-retry.ts') }).sessions.map((s) => s.touches.map((t) => t.kind).join()),
      ['delete'],
    );
    assert.deepEqual(
      library.fileHistory({ path: join(repo, 'src', 'retry-old.ts') }).sessions.map((s) => s.touches.map((t) => t.kind).join()),
      ['write'],
    );
  });

  test('each line is named by the latest edit that still matches it, and a hand-edited line by none', () => {
    const { lines } = library.fileHistory({ path: file, lines: '1-8' });
    assert.ok(lines);
    const by = (line: number) => lines.segments.find((s) => s.from <= line && line <= s.to)!;
    assert.equal(by(1).session, `claude-code:${uuid(1)}`, 'the signature: written by the first session');
    assert.equal(by(2).session, `claude-code:${uuid(2)}`, 'the loop: the back-off edit');
    assert.equal(by(3).session, `claude-code:${uuid(2)}`);
    assert.equal(by(3).request, 'make the retry loop back off');
    assert.equal(by(4).session, undefined, 'changed by hand after the agent');
    assert.equal(by(8).session, `claude-code:${uuid(4)}`, 'the limit: the worktree session');
    assert.equal(lines.to, 8);
    const one = library.fileHistory({ path: file, lines: '3' }).lines!;
    assert.deepEqual([one.from, one.to, one.segments.length], [3, 3, 1]);
  });

  test('a line an agent wrote with a secret in it is named by that edit, though the stored edit is masked', () => {
    const { lines } = library.fileHistory({ path: config, lines: '1-5' });
    assert.ok(lines);
    assert.deepEqual(
      lines.segments.map((s) => [s.from, s.to, s.session]),
      [[1, 5, `claude-code:${uuid(6)}`]],
    );
    assert.ok(!JSON.stringify(lines).includes('Vx7qTr9Lm2kPz'));
  });

  test('lines outside the file are refused, saying how many lines it has; a range running past its end stops there', () => {
    assert.throws(() => library.fileHistory({ path: config, lines: '50-60' }), /lines 50-60 are outside .*config\.ts, which has 5 lines/);
    assert.throws(() => library.fileHistory({ path: config, lines: '6' }), /which has 5 lines/);
    assert.equal(library.fileHistory({ path: config, lines: '4-60' }).lines!.to, 5);
  });

  test('lines of a file that cannot be read: a clear error', () => {
    assert.throws(() => library.fileHistory({ path: join(repo, 'src', 'old-retry.ts'), lines: '1' }), /cannot be read/);
  });
});

describe('line attribution, as a property of generated edit histories', () => {
  test('a line other than "}" or a blank is named by the session that last wrote it, and a line typed by hand by none', async () => {
    const { attributeLines } = await import('../../src/core/files/attribution.js');
    const { attributionCase } = await import('../../bench/attribution-cases.js');
    for (let seed = 1; seed <= 150; seed++) {
      const { text, edits, authors } = attributionCase(seed);
      const lines = text.split('\n');
      const named: (string | undefined)[] = [];
      for (const s of attributeLines(text, edits, 1, lines.length)) for (let l = s.from; l <= s.to; l++) named[l - 1] = s.ref;
      authors.forEach((author, i) => {
        if (lines[i].trim().length > 3) assert.equal(named[i], author, `seed ${seed}, line ${i + 1}: ${lines[i]}`);
      });
    }
  });
});

describe('an archive written before sessions kept their files and decisions', () => {
  test('a transcript still there is read again; one the tool deleted has them found in its archived turns', async () => {
    const { Archive } = await import('../../src/core/store/archive.js');
    const { MASK_RULES_VERSION } = await import('../../src/core/mask.js');
    const { openCore } = await import('../../src/core/library/open.js');
    const { MemoryLogger } = await import('../../src/core/log.js');
    const { statSync, rmSync } = await import('node:fs');
    const root = tempDir();
    const data = tempDir();
    const file = '/repo/src/store.ts';
    const ids = [uuid(11), uuid(12)];
    for (const id of ids)
      claudeSession(root, id, '/repo', '2026-04-01T10:00:00Z', "let's go with PostgreSQL instead of MongoDB", [
        { name: 'Edit', input: { file_path: file, old_string: 'const db = mongo();', new_string: 'const db = postgres();' } },
      ]);
    const archive = new Archive(data, new MemoryLogger());
    mkdirSync(archive.dir, { recursive: true });
    for (const id of ids) {
      const transcript = join(root, 'proj', `${id}.jsonl`);
      const info = statSync(transcript);
      const turn = (n: number, role: string, kind: string, text: string, tool?: string) => ({
        id: `claude-code:${id}#${n}`,
        role,
        kind,
        text,
        ...(tool ? { tool } : {}),
      });
      // as the last release archived it: no files, no decisions, the edit's text only
      const session = {
        id: `claude-code:${id}`,
        source: 'claude-code',
        nativeId: id,
        topic: "let's go with PostgreSQL instead of MongoDB",
        filename: id,
        file: transcript,
        size: info.size,
        created: '2026-04-01T10:00:00Z',
        updated: '2026-04-01T10:00:03Z',
        firstDay: '2026-04-01',
        lastDay: '2026-04-01',
        project: '/repo',
        turns: [
          turn(0, 'user', 'conversation', "let's go with PostgreSQL instead of MongoDB"),
          turn(1, 'assistant', 'diff', `Edit ${file}\n- const db = mongo();\n+ const db = postgres();`, 'Edit'),
        ],
      };
      const meta = { version: 1, source: 'claude-code', file: transcript, size: info.size, mtimeMs: info.mtimeMs, masked: MASK_RULES_VERSION };
      writeFileSync(archive.entryPath(transcript), `${JSON.stringify(meta)}\n${JSON.stringify(session)}\n`);
    }
    rmSync(join(root, 'proj', `${ids[1]}.jsonl`)); // the tool deleted the second: only the archive has it
    const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {} });
    await library.load();
    try {
      const answer = library.fileHistory({ path: file });
      assert.deepEqual(answer.sessions.map((s) => s.id).sort(), ids.map((id) => `claude-code:${id}`).sort());
      assert.ok(answer.sessions.every((s) => s.touches[0].kind === 'edit'));
      // the transcript read again knows exactly what the edit wrote
      const reread = answer.sessions.find((s) => s.id === `claude-code:${ids[0]}`)!;
      assert.equal(reread.touches[0].hunk, 'const db = postgres();');
      const decided = library.decisions({}).projects.flatMap((p) => p.decisions.map((d) => d.sessionId));
      assert.deepEqual(decided.sort(), ids.map((id) => `claude-code:${id}`).sort());
    } finally {
      await library.close();
    }
  });
});

describe('a warm start', () => {
  test('answers a file history as the load that parsed the sessions did, from touches the snapshot keeps apart and reads only when asked', async () => {
    const { openCore } = await import('../../src/core/library/open.js');
    const { MemoryLogger } = await import('../../src/core/log.js');
    const { Persistence } = await import('../../src/core/store/persistence.js');
    const { readFileSync } = await import('node:fs');
    const root = tempDir();
    const data = tempDir();
    const file = '/repo/src/store.ts';
    const ids = [uuid(21), uuid(22), uuid(23)];
    for (const [i, id] of ids.entries())
      claudeSession(root, id, '/repo', `2026-04-0${i + 1}T10:00:00Z`, `change number ${i} to the store`, [
        { name: 'Edit', input: { file_path: file, old_string: `v${i}`, new_string: `v${i + 1}` } },
      ]);
    const open = async () => {
      const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {} });
      await library.load();
      return library;
    };
    const history = (library: Awaited<ReturnType<typeof open>>) =>
      library.fileHistory({ path: file }).sessions.map((s) => ({ id: s.id, touches: s.touches.map((t) => [t.kind, t.turn]) }));
    const first = await open();
    const parsed = history(first);
    assert.equal(parsed.length, 3);
    await first.close();
    // the sessions' metadata in the snapshot no longer carries their touches: they are a section of their own
    const bytes = readFileSync(Persistence.snapshotPath(data));
    const header = snapshotHeader(bytes).header as StoredHeader & { sections: Record<string, unknown> };
    assert.ok(snapshotSessions(bytes).sessions.every((s) => s.files === undefined));
    assert.ok(header.sections.touches, 'the touches have a section');
    const warm = await open();
    try {
      assert.deepEqual(history(warm), parsed, 'restored sessions');
      // a session read again from its transcript has its own touches, never the one it replaced
      claudeSession(root, ids[0], '/repo', '2026-04-01T10:00:00Z', 'change number 0 to the store', []);
      await warm.reloadFile(join(root, 'proj', `${ids[0]}.jsonl`));
      assert.deepEqual(
        history(warm).map((s) => s.id),
        parsed.map((s) => s.id).filter((id) => id !== `claude-code:${ids[0]}`),
      );
    } finally {
      await warm.close();
    }
    // the snapshot written then carries the restored sessions' touches over (read from the one they came from)
    const again = await open();
    try {
      assert.deepEqual(
        history(again),
        parsed.filter((s) => s.id !== `claude-code:${ids[0]}`),
      );
    } finally {
      await again.close();
    }
  });
});

describe('touches in the forms other agents write them', () => {
  test("Codex's apply_patch (added, edited, deleted, moved files and the lines each edit adds), and Gemini's, Cline's, Copilot Chat's and Cursor's forms", async () => {
    const { fileTouches } = await import('../../src/core/files/touches.js');
    const { writtenBlocks } = await import('../../src/core/files/attribution.js');
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+export const created = true;',
      '*** Update File: src/app.ts',
      '@@ function main',
      '-  run();',
      '+  await run();',
      '*** Delete File: src/old.ts',
      '*** Update File: src/a.ts',
      '*** Move to: src/b.ts',
      '@@',
      '+// moved',
      '*** End Patch',
    ].join('\n');
    const turns = [
      { role: 'user' as const, kind: 'conversation' as const, text: 'tidy the app' },
      { role: 'assistant' as const, kind: 'diff' as const, tool: 'apply_patch', text: patch },
      { role: 'assistant' as const, kind: 'tool' as const, tool: 'shell', text: '$ bash -lc "npx vitest run src/app.test.ts && rm -f build/out.js"' },
      { role: 'assistant' as const, kind: 'tool' as const, tool: 'read_file', text: 'read_file {"absolute_path":"/w/notes.md"}' },
      { role: 'assistant' as const, kind: 'tool' as const, tool: 'replace', text: 'replace {"file_path":"/w/src/x.go","old_string":"a","new_string":"b"}' },
      { role: 'assistant' as const, kind: 'tool' as const, tool: 'write_to_file', text: 'write_to_file {"path":"docs/guide.md","content":"# Guide"}' },
      { role: 'assistant' as const, kind: 'diff' as const, text: 'Edited /w/src/chat.ts' },
      { role: 'assistant' as const, kind: 'diff' as const, tool: 'editedExistingFile', text: 'editedExistingFile src/cline.ts\n@@ -1 +1 @@' },
      { role: 'assistant' as const, kind: 'tool' as const, tool: 'run_terminal_cmd', text: 'run_terminal_cmd {"command":"rm tmp/cursor.log"}' },
    ];
    assert.deepEqual(
      fileTouches(turns, '/w').map((t) => `${t.turn} ${t.kind} ${t.path}`),
      [
        '1 write /w/src/new.ts',
        '1 edit /w/src/app.ts',
        '1 delete /w/src/old.ts',
        '1 delete /w/src/a.ts',
        '1 write /w/src/b.ts',
        '2 run /w/src/app.test.ts',
        '2 delete /w/build/out.js',
        '3 read /w/notes.md',
        '4 edit /w/src/x.go',
        '5 write /w/docs/guide.md',
        '6 edit /w/src/chat.ts',
        '7 edit /w/src/cline.ts',
        '8 delete /w/tmp/cursor.log',
      ],
    );
    assert.deepEqual(
      writtenBlocks(turns[1], (p) => p === 'src/app.ts'),
      ['  await run();'],
    );
    assert.deepEqual(
      writtenBlocks(turns[1], (p) => p === 'src/b.ts'),
      ['// moved'],
    );
  });
});

test("SpecStory's Markdown of tool calls names their files too", async () => {
  const { fileTouches } = await import('../../src/core/files/touches.js');
  const call = (text: string) => ({ role: 'assistant' as const, kind: 'tool' as const, text });
  assert.deepEqual(
    fileTouches(
      [
        call('Tool use: **Read**\n `/w/pkg/session.go`'),
        call('Tool use: **Edit**\n\n```text\nThe file /w/pkg/session_test.go has been updated. Here is the result…\n```'),
        call('Tool use: **Bash**\nRun the tests\n\n```bash\ngo test ./pkg/session.go\n```'),
      ],
      '/w',
    ).map((t) => `${t.turn} ${t.kind} ${t.path}`),
    ['0 read /w/pkg/session.go', '1 edit /w/pkg/session_test.go', '2 run /w/pkg/session.go'],
  );
});
