/** The source adapters on the real transcripts: what a user would check on their own files. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LibraryCore } from '../../src/core/library/open.js';
import type { MemoryLogger } from '../../src/core/log.js';
import { firstPrompt } from '../../src/core/model.js';
import { codeArchitectSource, codeArchitectLayout } from '../../src/core/ingest/sources/codearchitect.js';
import { scanRoots } from '../../src/core/ingest/file-state.js';
import { transcriptTest } from '../../src/core/ingest/exclude.js';
import { CORPUS, corpusRoots, loadLibrary, tempDir, writeCodeArchitect, writeFile } from '../helpers.js';

function hashTree(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) hashTree(full, out);
    else if (entry.isFile()) out.set(full, createHash('sha256').update(readFileSync(full)).digest('hex'));
  }
  return out;
}

let library: LibraryCore;
let logger: MemoryLogger;
let hashesBefore: Map<string, string>;

before(async () => {
  hashesBefore = hashTree(CORPUS);
  ({ library, logger } = await loadLibrary(corpusRoots));
});

after(() => {
  assert.deepEqual(hashTree(CORPUS), hashesBefore, 'reading must never modify a source transcript');
});

const sessionsOf = (source: string) => [...library.sessions.values()].filter((s) => s.source === source);

describe('CodeArchitect', () => {
  test('every session folder of the sample loads, topic and day from the folders', () => {
    const folders = readdirSync(join(CORPUS, 'codearchitect', 'sessions')).flatMap((day) =>
      readdirSync(join(CORPUS, 'codearchitect', 'sessions', day)).map((topic) => `${day}/${topic}`),
    );
    const ids = new Set(sessionsOf('codearchitect').map((s) => s.nativeId));
    assert.equal(ids.size, folders.length);
    for (const folder of folders) assert.ok(ids.has(folder), `${folder} loaded`);
  });

  test('messages come from full.md: roles, first prompt, date from the file', () => {
    const s = library.sessions.get('codearchitect:2024-08-06/python')!;
    assert.equal(s.topic, 'python');
    assert.equal(s.filename, 'python');
    assert.ok(s.file.endsWith(join('2024-08-06', 'python', 'full.md')));
    assert.equal(library.turns.all(s).length, 4);
    assert.deepEqual(
      library.turns.all(s).map((t) => t.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.equal(firstPrompt(s), '/test pytest tests/basic/test_main.py');
    assert.equal(s.created, '2024-08-06T09:06:27.951Z');
    assert.equal(s.firstDay, '2024-08-06');
  });

  test('a folder name that says nothing (a pasted blob, filler, session-<number>) gives way to the first prompt', () => {
    const byFolder = (name: string) => sessionsOf('codearchitect').filter((s) => s.filename === name);
    const blob = byFolder('variablesn-openaiapikey-anthropicapikey');
    assert.ok(blob.length >= 1);
    for (const s of blob) assert.ok(['/tokens', 'hi'].includes(s.topic), s.topic);
    assert.ok(
      byFolder('ill-1').some((s) => s.topic === 'add --mini to set model to gpt-4o-mini'),
      'filler folder titled from the prompt',
    );
    assert.ok(
      byFolder('gittemporarydirectoryn-create').every((s) => s.topic === 'def test_subtree_only(self):'),
      'a name glued out of pasted code',
    );
    assert.ok(
      byFolder('codercommitbeforemessage').every((s) => s.topic === 'codercommitbeforemessage'),
      'a name the prompt holds is kept',
    );
    assert.ok(byFolder('spinner-ill').every((s) => s.topic === 'spinner-ill'));
    for (const s of sessionsOf('codearchitect')) assert.doesNotMatch(s.topic, /apikey|^session-\d+$|^(ill|comment|please)(-\d+)?$/, s.id);
  });

  test('a folder named session-<number> says nothing: its title is the first prompt; a binary full.md is skipped with a reason', async () => {
    const untitled = sessionsOf('codearchitect').filter((s) => /^session-\d+$/.test(s.filename));
    assert.ok(untitled.length > 20);
    for (const s of untitled) {
      assert.doesNotMatch(s.topic, /^session-\d+$/, s.id);
      const squeeze = (text: string): string => text.replace(/\s+/g, ' ');
      const prompts = library.turns
        .all(s)
        .filter((t) => t.role === 'user')
        .map((t) => squeeze(t.text.replace(/^[#>*\s-]+/, '')));
      const from = prompts.findIndex((p) => p.startsWith(squeeze(s.topic.replace(/…$/, ''))));
      assert.ok(from >= 0, `${s.topic} / ${firstPrompt(s)?.slice(0, 80)}`);
      assert.ok(
        prompts.slice(0, from).every((p) => /^(\/\w+\s+)?(hi|hello|hey|thanks|ok)\W*$/i.test(p.trim())),
        `${s.topic}: only greetings come before the prompt it is titled from`,
      );
    }
    const root = tempDir();
    writeCodeArchitect(root, '2025-01-02', 'readable', [{ role: 'user', content: 'a readable session' }]);
    writeFile(join(root, '2025-01-02', 'garbage', 'full.md'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    const loaded = await loadLibrary([{ source: 'codearchitect', path: root }]);
    assert.deepEqual(
      [...loaded.library.sessions.values()].map((s) => s.filename),
      ['readable'],
    );
    assert.ok(
      loaded.logger.lines.some((l) => l.includes(join('garbage', 'full.md')) && l.includes('not text')),
      loaded.logger.lines.join('\n'),
    );
    await loaded.library.close();
  });

  test('which files are sessions: a summary only where its session has no full.md; the root cut off exactly', () => {
    const root = tempDir();
    writeFile(join(root, '2025-01-02', 'both', 'full.md'), 'x');
    writeFile(join(root, '2025-01-02', 'both', 'summary.md'), 'x');
    writeFile(join(root, '2025-01-02', 'alone', 'summary.md'), 'x');
    writeFile(join(root, '2025-01-02', 'old-full.md'), 'x');
    writeFile(join(root, '2025-01-02', 'old-summary.md'), 'x');
    writeFile(join(root, '2025-01-02', 'lone-summary.md'), 'x');
    const accepts = (file: string, from = root): boolean => codeArchitectSource.accepts(file, from);
    assert.deepEqual(
      ['both/full.md', 'both/summary.md', 'alone/summary.md', 'old-full.md', 'old-summary.md', 'lone-summary.md', 'both/notes.txt'].map((f) =>
        accepts(join(root, '2025-01-02', f)),
      ),
      [true, false, true, true, false, true, false],
    );
    // a root given with its separator; a path that only starts with the root's name; dot segments
    assert.equal(accepts(join(root, '2025-01-02', 'alone', 'summary.md'), `${root}${sep}`), true);
    assert.equal(accepts(`${root}2${sep}2025-01-02${sep}alone${sep}full.md`), false);
    assert.equal(accepts(`${root}${sep}.${sep}2025-01-02${sep}alone${sep}summary.md`), true);
    assert.equal(accepts(`${root}${sep}x${sep}..${sep}2025-01-02${sep}both${sep}summary.md`), false);
    assert.equal(accepts(`${root}${sep}2025-01-02${sep}${sep}both${sep}full.md`), true);
    assert.deepEqual(codeArchitectLayout(join(root, '2025-01-02', 'old-full.md'), root), { day: '2025-01-02', topic: 'old', part: 'full', legacy: true });
  });

  test("a walk tells a summary's full.md from the folder it just listed, as the disk would (a link to nowhere: the summary is read)", async () => {
    const root = tempDir();
    const day = join(root, '2025-01-02');
    for (const f of [
      'both/full.md',
      'both/summary.md',
      'alone/summary.md',
      'dangling/summary.md',
      'linked/summary.md',
      'old-full.md',
      'old-summary.md',
      'lone-summary.md',
    ])
      writeFile(join(day, f), 'x');
    symlinkSync(join(root, 'nowhere.md'), join(day, 'dangling', 'full.md'));
    symlinkSync(join(day, 'both', 'full.md'), join(day, 'linked', 'full.md'));
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const { plan } = await scanRoots([{ source: 'codearchitect', path: root }], quiet, transcriptTest(undefined));
    const walked = plan[0].files.map((f) => relative(day, f.file)).sort();
    assert.deepEqual(walked, ['alone/summary.md', 'both/full.md', 'dangling/summary.md', 'linked/full.md', 'lone-summary.md', 'old-full.md']);
    // the same as each file asked of the disk
    const onDisk = [
      'both/full.md',
      'both/summary.md',
      'alone/summary.md',
      'dangling/summary.md',
      'linked/full.md',
      'linked/summary.md',
      'old-full.md',
      'old-summary.md',
      'lone-summary.md',
    ];
    assert.deepEqual(onDisk.filter((f) => codeArchitectSource.accepts(join(day, f), root)).sort(), walked);
  });
});

describe('Claude Code', () => {
  test('assistant lines sharing message.id merge into one turn; title comes from a summary in another file', () => {
    const s = library.sessions.get('claude-code:1af7fc5e-8455-4414-9ccd-011d40f70b2a')!;
    assert.equal(s.topic, 'Empty Repo Setup: CLAUDE.md Foundation Created');
    assert.equal(s.project, '/path/to/Demo');
    assert.equal(firstPrompt(s), '/init');
    const raw = readFileSync(s.file, 'utf8');
    const textMessageIds = new Set(
      raw
        .split('\n')
        .filter((l) => l.includes('"type":"assistant"') && l.includes('"type":"text"'))
        .map((l) => (JSON.parse(l) as { message: { id: string } }).message.id),
    );
    const assistantProse = library.turns.all(s).filter((t) => t.role === 'assistant' && t.kind === 'conversation');
    assert.equal(assistantProse.length, textMessageIds.size);
    assert.ok(
      library.turns.all(s).some((t) => t.role === 'tool'),
      'tool results are turns',
    );
    assert.ok(
      library.turns.all(s).some((t) => t.kind === 'diff' && t.tool === 'Write'),
      'an edited file is a diff turn',
    );
    assert.equal(s.created, '2025-09-03T00:47:19.293Z');
  });

  test('sub-agent files in both layouts load and point at their parent session', () => {
    const agents = sessionsOf('claude-code').filter((s) => s.filename.startsWith('agent-'));
    const layouts = new Set(agents.map((s) => (s.file.includes('/subagents/') ? 'nested' : 'flat')));
    assert.deepEqual([...layouts].sort(), ['flat', 'nested']);
    const nested = agents.find((s) => s.file.includes('/subagents/'))!;
    // the folder holding subagents/ is its session's: the parent it names is the one that transcript gives, and opens
    const parent = sessionsOf('claude-code').find((s) => s.file === `${nested.file.split('/subagents/')[0]}.jsonl`);
    assert.ok(parent, 'the parent transcript is read');
    assert.equal(nested.parentId, parent.id);
    assert.match(nested.topic, /^Sub-agent: Analyze the existing CLI command structure/);
    assert.equal(nested.branch, 'hooks');
  });

  test('thinking is its own kind, signatures and base64 never reach the text', () => {
    const all = sessionsOf('claude-code');
    assert.ok(all.some((s) => library.turns.all(s).some((t) => t.kind === 'thinking')));
    for (const s of all) for (const t of library.turns.all(s)) assert.doesNotMatch(t.text, /"signature"|iVBORw0KGgo|\/9j\/4AAQ/);
  });

  test('compaction is marked and the compact summary kept as a note', () => {
    const s = sessionsOf('claude-code').find((x) => x.file.endsWith('session-624a4a58.jsonl'))!;
    assert.ok(library.turns.all(s).some((t) => t.kind === 'note' && t.text === 'Conversation compacted.'));
    assert.ok(library.turns.all(s).some((t) => t.kind === 'note' && t.text.startsWith('This session is being continued')));
  });

  test('lines that are not JSON objects are skipped with file, line and reason; the rest loads', () => {
    const s = sessionsOf('claude-code').find((x) => x.file.endsWith('edge_cases.jsonl'))!;
    assert.ok(library.turns.all(s).length > 5);
    assert.ok(logger.lines.some((l) => /edge_cases\.jsonl:\d+: skipped, not a JSON object/.test(l)));
  });
});

describe('Codex', () => {
  test("one channel of the duplicated messages; the user's own words; project, branch and dates from session_meta", () => {
    const s = library.sessions.get('codex:a1b2c3d4-e5f6-7890-abcd-ef1234567890')!;
    assert.equal(s.topic, 'Hello, Codex! Please explain what you do.');
    assert.deepEqual(
      library.turns.all(s).map((t) => `${t.role}:${t.kind}`),
      ['user:conversation', 'assistant:conversation', 'user:conversation', 'assistant:conversation'],
    );
    assert.equal(s.project, '/home/user/project');
    assert.equal(s.branch, 'main');
    assert.equal(s.created, '2026-05-12T09:59:55.000Z');
  });

  test('injected context and encrypted reasoning are never indexed', () => {
    for (const s of sessionsOf('codex')) {
      for (const t of library.turns.all(s)) {
        if (t.role === 'user') assert.doesNotMatch(t.text, /^<environment_context>|^# AGENTS\.md/);
        assert.doesNotMatch(t.text, /encrypted_content/);
      }
    }
  });

  test('a real rollout has tool calls, their output and patches as turns', () => {
    const s = library.sessions.get('codex:019e1625-789d-76c0-80ab-3724b5ddb799')!;
    assert.equal(s.project, '/Users/Sample_User/repos/codemie-ai/codemie-code');
    assert.equal(s.branch, 'feat/codex-agent-plugin');
    assert.ok(library.turns.all(s).filter((t) => t.role === 'tool').length >= 50);
    assert.ok(library.turns.all(s).some((t) => t.kind === 'diff'));
    assert.equal(library.turns.all(s).filter((t) => t.role === 'user' && t.kind === 'conversation').length, 2);
  });

  test('files with no conversation (token counts only) are reported, not indexed', () => {
    assert.ok(!sessionsOf('codex').some((s) => s.file.includes('token-count-only')));
    assert.ok(logger.lines.some((l) => l.includes('token-count-only.jsonl: no conversation turns')));
  });
});

test('every transcript file of the three sources loads without an error escaping', () => {
  assert.ok(!logger.lines.some((l) => l.startsWith('error')));
  const files = [...hashesBefore.keys()].filter((f) => f.endsWith('.jsonl') && (f.includes('/claude-code/') || f.includes('/codex/')));
  const loaded = new Set([...library.sessions.values()].map((s) => s.file));
  for (const f of files) {
    const accounted = loaded.has(f) || logger.lines.some((l) => l.includes(f));
    assert.ok(accounted, `${f} is either loaded or its skip is logged`);
    assert.ok(statSync(f).size >= 0);
  }
});
