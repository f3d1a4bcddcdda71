/** Secrets and e-mail addresses are masked at ingest; ordinary code survives. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { EMAIL_MASK, maskText, SECRET_MASK } from '../src/core/mask.js';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { SessionLibrary } from '../src/core/library.js';
import { MemoryLogger } from '../src/core/log.js';
import { firstPrompt } from '../src/core/model.js';
import type { SourceRoot } from '../src/core/sources/registry.js';
import { spawnSync } from 'node:child_process';
import { ROOT, tempDir, writeFile } from './helpers.js';

// Built at run time so that no complete secret-shaped literal sits in the repository.
const fake = (prefix: string, body: string, n: number): string => prefix + body.repeat(Math.ceil(n / body.length)).slice(0, n);

const SECRETS: Record<string, string> = {
  aws: fake('AKIA', 'Q3VZ7TXW', 16),
  github: fake('ghp_', 'aB3dE5fG7hJ9kL1mN2pQ', 36),
  gitlab: fake('glpat-', 'xY7zW2vU4tS6rQ8p', 20),
  slack: fake('xoxb-', '1234567890-abcdefGH', 40),
  stripe: fake('sk_live_', 'Zx9Yw8Vu7Ts6Rq5P', 24),
  openai: fake('sk-proj-', 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8', 60),
  anthropic: fake('sk-ant-api03-', 'Qw1Er2Ty3Ui4Op5As6', 90),
  google: fake('AIza', 'Sy1Bc2De3Fg4Hi5Jk6Lm7No8Pq9', 35),
  npm: fake('npm_', 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7', 36),
  sendgrid: `SG.${fake('', 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8', 22)}.${fake('', 'Qr9St8Uv7Wx6Yz5', 43)}`,
  shopify: fake('shpat_', '0a1b2c3d4e5f6789', 32),
  linear: fake('lin_api_', 'Zy9Xw8Vu7Ts6Rq5', 40),
  digitalocean: fake('dop_v1_', '0123456789abcdef', 64),
  vault: fake('hvs.', 'CAESIJ1k2L3m4N5o6P7q', 95),
  telegram: `123456789:AA${fake('', 'Hn3Kp9Qw2Ex7Rt5Yu', 33)}`,
  jwt: `eyJhbGciOiJIUzI1NiJ9.${fake('eyJ', 'zdWIiOiIxMjM0NTY3ODkwIn0', 30)}.${fake('', 'SflKxwRJSMeKKF2QT4fwpM', 43)}`,
};

test('each kind of secret is masked, and the text around it kept', () => {
  for (const [name, secret] of Object.entries(SECRETS)) {
    const masked = maskText(`my ${name} key is ${secret} ok`);
    assert.equal(masked, `my ${name} key is ${SECRET_MASK} ok`, name);
  }
});

test('private key blocks, connection URLs with passwords, and password assignments', () => {
  const pem = `-----BEGIN RSA PRIVATE KEY-----\n${fake('', 'MIIEowIBAAKCAQEA7x', 120)}\n-----END RSA PRIVATE KEY-----`;
  assert.equal(maskText(`key:\n${pem}\nend`), `key:\n${SECRET_MASK}\nend`);
  assert.equal(maskText('postgres://admin:S3cr3tPassw0rd@db.internal:5432/app'), `postgres://admin:${SECRET_MASK}@db.internal:5432/app`);
  assert.equal(maskText('DB_PASSWORD=hX9#kq2!Lm7zP'), `DB_PASSWORD=${SECRET_MASK}`);
});

test('e-mail addresses are masked; git remotes and code are not', () => {
  assert.equal(maskText('Author: Jane Doe <jane.doe@example.com>'), `Author: Jane Doe <${EMAIL_MASK}>`);
  for (const code of [
    'git@github.com:org/repo.git',
    'const password = getPassword(user);',
    'token_count: 1234',
    'if (secretKey === undefined) return;',
    'import { z } from "zod"; @types/node',
    'max_map_tokens = 0',
    'OPENAI_API_KEY=your-key-goes-here',
    'npm i @sitespeed.io/throttle lmdb-store@sitespeed.io/x',
    'Promise.@resolve.bind(this)',
  ]) {
    assert.equal(maskText(code), code, code);
  }
  assert.equal(maskText(maskText(`x ${SECRETS.github}`)), `x ${SECRET_MASK}`, 'idempotent');
});

test('secrets planted in transcripts never reach the index, snippets, get, read, titles, the log, the archive, the snapshot or the CLI', async () => {
  const dir = tempDir();
  const secret = SECRETS.github;
  const email = 'qzxpersonal@example.org';
  writeFile(
    join(dir, 'ca', '2025-01-02', 'planted', 'full.md'),
    `# planted - Full Context\n\n**Date:** 2025-01-02T10:00:00.000Z\n\n## Full Conversation (JSON)\n\n\`\`\`json\n${JSON.stringify([{ role: 'user', content: `deploy with ${secret} for ${email} canary` }])}\n\`\`\`\n`,
  );
  writeFile(
    join(dir, 'claude', 'proj', '11111111-2222-4333-8444-555555555555.jsonl'),
    `${JSON.stringify({ type: 'user', uuid: 'u1', sessionId: '11111111-2222-4333-8444-555555555555', cwd: '/p', timestamp: '2025-01-02T10:00:00Z', message: { role: 'user', content: `deploy with ${secret} for ${email} canary` } })}\n`,
  );
  writeFile(
    join(dir, 'codex', 'rollout-2025-01-02T10-00-00-0197aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee.jsonl'),
    [
      { timestamp: '2025-01-02T10:00:00Z', type: 'session_meta', payload: { id: '0197aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee', cwd: '/p' } },
      { timestamp: '2025-01-02T10:00:01Z', type: 'event_msg', payload: { type: 'user_message', message: `deploy with ${secret} for ${email} canary` } },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  writeFile(join(dir, 'aider', '.aider.chat.history.md'), `# aider chat started at 2025-01-02 10:00:00\n\n#### deploy with ${secret} for ${email} canary\n\nSure, deploying.\n`);
  const data = join(dir, 'data');
  const logger = new MemoryLogger();
  const roots: SourceRoot[] = [
    { source: 'codearchitect', path: join(dir, 'ca') },
    { source: 'claude-code', path: join(dir, 'claude') },
    { source: 'codex', path: join(dir, 'codex') },
    { source: 'aider', path: join(dir, 'aider') },
  ];
  const library = new SessionLibrary({ roots, logger, env: {}, dataDir: data });
  await library.load();
  const found = library.search('deploy canary');
  assert.equal(found.count, 4);
  assert.equal(library.search(secret).count, 0);
  assert.equal(library.search('qzxpersonal').count, 0);
  const surfaces: string[] = [JSON.stringify(found), JSON.stringify(library.list())];
  for (const r of found.results) {
    surfaces.push(JSON.stringify(await library.get(r.id, { format: 'json' })));
    surfaces.push(JSON.stringify(library.read(r.id)));
    for (const t of r.snippetTurnIds) surfaces.push(JSON.stringify(library.read(t)));
  }
  // What the tree shows (titles, first prompts), the log, and every file in the data folder (archive, snapshot).
  for (const s of library.sessions.values()) surfaces.push(s.topic, firstPrompt(s) ?? '');
  surfaces.push(library.suggestTitles('deploy').map((s) => s.topic).join('\n'), logger.lines.join('\n'));
  await library.close();
  const stored = readdirSync(data, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(data, f)).isFile());
  assert.ok(stored.some((f) => f.endsWith('snapshot.bin')) && stored.filter((f) => f.endsWith('.jsonl')).length === 4, stored.join(', '));
  for (const f of stored) surfaces.push(readFileSync(join(data, f), 'latin1'));
  // The CLI, as a person runs it: search, list and get, human and JSON output.
  const rootArgs = roots.flatMap((r) => ['--root', `${r.source}=${r.path}`]);
  const run = (...args: string[]): string => {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args, ...rootArgs, '--data', data], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout + result.stderr;
  };
  surfaces.push(run('search', 'deploy', 'canary'), run('search', 'deploy', 'canary', '--json'), run('list', '--json'));
  for (const r of found.results) surfaces.push(run('get', r.id));
  assert.ok(surfaces.at(-1)!.includes('canary'), 'the CLI shows the session');
  for (const text of surfaces) {
    assert.ok(!text.includes(secret), 'no secret');
    assert.ok(!text.includes(email), 'no e-mail');
  }
  assert.ok(surfaces.join('').includes(SECRET_MASK) && surfaces.join('').includes(EMAIL_MASK));
});

test("nothing secretlint's recommended rules find survives our masking, in planted secrets or the sample transcripts", async () => {
  const { lintSource } = await import('@secretlint/core');
  const { creator } = await import('@secretlint/secretlint-rule-preset-recommend');
  const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
  const findings = async (text: string): Promise<string[]> =>
    (await lintSource({ source: { content: text, filePath: '/t.txt', ext: '.txt', contentType: 'text' }, options: { config, noPhysicFilePath: true } })).messages.map((m) =>
      text.slice(m.range[0], m.range[1]),
    );
  const planted = [
    ...Object.values(SECRETS),
    fake('github_pat_', 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op', 82),
    fake('xoxp-', '2345678901-bcdefgHI', 40),
    `https://hooks.slack.com/services/T0${fake('', 'ABCDEFG', 7)}/B0${fake('', 'HIJKLMN', 7)}/${fake('', 'abcdEFGHijkl1234', 24)}`,
    `mysql://root:${fake('', 'Pa55w0rdXy', 14)}@db.internal:3306/app`,
  ];
  const text = planted.map((s, i) => `step ${i}: export VALUE=${s} and continue`).join('\n');
  const flagged = await findings(text);
  assert.ok(flagged.length >= 5, `secretlint recognises the planted secrets (${flagged.length})`);
  const masked = maskText(text);
  for (const span of flagged) assert.ok(!masked.includes(span), `left unmasked: ${span.slice(0, 12)}…`);

  const { CORPUS } = await import('./helpers.js');
  const files = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(jsonl?|md)$/.test(f));
  assert.ok(files.length > 100);
  for (const f of files) {
    const sample = readFileSync(join(CORPUS, f), 'utf8');
    const maskedSample = maskText(sample);
    for (const span of await findings(sample)) assert.ok(!maskedSample.includes(span), `${f}: left unmasked ${span.slice(0, 12)}…`);
  }
});

test('a damaged line holding a secret never puts any of it in the log', async () => {
  const dir = tempDir();
  const secret = SECRETS.github;
  // Not valid JSON: the parser's error message would quote the start of the line, secret included.
  writeFile(join(dir, 'claude', 'p', '11111111-2222-4333-8444-555555555555.jsonl'), `{"type": ${secret}, "x": 1}\n${JSON.stringify({ type: 'user', uuid: 'u', sessionId: '11111111-2222-4333-8444-555555555555', cwd: '/p', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'a good line after a bad one' } })}\n`);
  writeFile(join(dir, 'gemini', 'tmp', 'abc', 'chats', 'session-1.json'), `{"sessionId": ${secret}}`);
  const logger = new MemoryLogger();
  const library = new SessionLibrary({ roots: [{ source: 'claude-code', path: join(dir, 'claude') }, { source: 'gemini', path: join(dir, 'gemini') }], logger, env: {} });
  await library.load();
  assert.equal(library.search('good line').count, 1, 'the rest of the file loads');
  assert.ok(logger.lines.some((l) => l.includes('11111111-2222-4333-8444-555555555555.jsonl:1: skipped')), logger.lines.join('\n'));
  for (const line of logger.lines) assert.ok(!line.includes(secret.slice(0, 8)), `no part of the secret in: ${line}`);
});
