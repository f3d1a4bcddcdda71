/**
 * `session-search export` as a user runs it, on a real Codex sample (82 turns, tool calls and outputs): Markdown, a
 * self-contained HTML page and JSON. Each format is checked against its golden output (kept as a SHA-256, so the
 * repository holds no copy of the sample) and for what a reader relies on; hostile markup stays text in the page; the
 * home folder and user name can be replaced; secrets stay masked.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CORPUS, ROOT, tempDir, writeFile } from '../helpers.js';
import { SECRETS } from '../secrets.js';

const ID = 'codex:019e1695-0522-7c83-8b39-0dd379793f80';
const ROOTS = ['--root', `codex=${join(CORPUS, 'codex')}`, '--data', tempDir()];
/**
 * The golden outputs of the sample, by format (regenerate by hashing `export` after a deliberate change; last: the
 * title and first prompt are the request after Codex's `# Files mentioned by the user:` header, no longer the header;
 * nothing else differs, turn for turn).
 */
const GOLDEN: Record<string, string> = {
  md: 'd32396620a5f7692d11cbac7156c416dc7fc555c0e38316c4813956120d06076',
  html: 'b175230a075db315818bc145e7c238e6bf8a7038f3885079052b2e15ba696465',
  json: 'c98c206e7285a68f5abbc2a6c26c69ae0aa9a68c181eb1aaf55c36a7777192f9',
};

function cli(args: string[], env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('export in Markdown, HTML and JSON: the golden output of a real session, every turn, readable offline', () => {
  const out: Record<string, string> = {};
  for (const format of ['md', 'html', 'json']) {
    out[format] = cli(['export', ID, '--format', format, ...ROOTS]);
    assert.equal(createHash('sha256').update(out[format]).digest('hex'), GOLDEN[format], `${format} differs from its golden output`);
  }
  const json = JSON.parse(out.json) as { id: string; turns: { role: string; kind: string; text: string }[]; resumeCommand: string };
  assert.equal(json.id, ID);
  assert.equal(json.turns.length, 82);
  assert.equal(json.resumeCommand, 'codex resume 019e1695-0522-7c83-8b39-0dd379793f80');
  assert.ok(json.turns.some((t) => t.kind === 'tool') && json.turns.some((t) => t.role === 'user'));
  // Markdown: a heading per turn, tool output fenced
  assert.equal(out.md.match(/^## (User|Assistant|Tool|System)\b[^\n]* — \d{4}-\d\d-\d\dT/gm)?.length, 82);
  assert.match(out.md, /^- \*\*Resume:\*\* codex resume /m);
  assert.match(out.md, /^## Tool · tool \(exec_command\)/m);
  // HTML: one <details> per turn, styled, no script, nothing fetched
  assert.equal(out.html.match(/<details /g)?.length, 82);
  assert.match(out.html, /<style>/);
  assert.match(out.html, /Content-Security-Policy" content="default-src 'none'/);
  assert.doesNotMatch(out.html, /<(script|link|img|iframe|object)\b|<[a-z][^<>]*\s(src|href)=/i);
  // the user's home and name replaced on request
  const redacted = cli(['export', ID, '--format', 'md', '--redact-home', ...ROOTS], { HOME: '/Users/Sample_User' });
  assert.ok(out.md.includes('/Users/Sample_User/naya'));
  assert.ok(!redacted.includes('Sample_User'), 'no user name left');
  assert.match(redacted, /\*\*Project:\*\* ~\/naya/);
});

test('export --out writes the file; markup in a transcript stays text in the page; secrets stay masked', () => {
  const root = tempDir();
  const id = '22222222-3333-4444-8555-666666666666';
  const record = (uuid: string, role: 'user' | 'assistant', text: string) =>
    JSON.stringify({ type: role, uuid, sessionId: id, cwd: '/w', timestamp: '2025-06-01T10:00:00Z', message: { role, content: text } });
  writeFile(
    join(root, 'w', `${id}.jsonl`),
    `${record('u1', 'user', `deploy with ${SECRETS.github} and DB_PASSWORD=hunter2hunter2 <script>alert(1)</script>`)}\n${record('a1', 'assistant', '<img src=x onerror=alert(2)> done')}\n`,
  );
  const file = join(tempDir(), 'session.html');
  cli(['export', `claude-code:${id}`, '--format', 'html', '--out', file, '--root', `claude-code=${root}`, '--data', tempDir()]);
  const page = readFileSync(file, 'utf8');
  assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(page, /&lt;img src=x onerror=alert\(2\)&gt;/);
  assert.doesNotMatch(page, /<script|<img/);
  assert.ok(!page.includes(SECRETS.github) && !page.includes('hunter2hunter2'));
  assert.match(page, /\[redacted-secret\]/);
});
