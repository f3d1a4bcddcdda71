/** Secrets and e-mail addresses are masked at ingest; ordinary code survives. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { EMAIL, EMAIL_MASK, maskEmails, maskText, SECRET_MASK } from '../../src/core/mask.js';
import { readdirSync, readFileSync } from 'node:fs';
import { createLibrary } from '../../src/core/library.js';
import { MemoryLogger } from '../../src/core/log.js';
import { tempDir, writeFile } from '../helpers.js';
import { fake, SECRETS } from '../secrets.js';

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

test("nothing secretlint's recommended rules find survives our masking, in planted secrets or the sample transcripts", async () => {
  const { lintSource } = await import('@secretlint/core');
  const { creator } = await import('@secretlint/secretlint-rule-preset-recommend');
  const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
  const findings = async (text: string): Promise<string[]> =>
    (
      await lintSource({ source: { content: text, filePath: '/t.txt', ext: '.txt', contentType: 'text' }, options: { config, noPhysicFilePath: true } })
    ).messages.map((m) => text.slice(m.range[0], m.range[1]));
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

  const { CORPUS } = await import('../helpers.js');
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
  writeFile(
    join(dir, 'claude', 'p', '11111111-2222-4333-8444-555555555555.jsonl'),
    `{"type": ${secret}, "x": 1}\n${JSON.stringify({ type: 'user', uuid: 'u', sessionId: '11111111-2222-4333-8444-555555555555', cwd: '/p', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'a good line after a bad one' } })}\n`,
  );
  writeFile(join(dir, 'gemini', 'tmp', 'abc', 'chats', 'session-1.json'), `{"sessionId": ${secret}}`);
  const logger = new MemoryLogger();
  const library = createLibrary({
    roots: [
      { source: 'claude-code', path: join(dir, 'claude') },
      { source: 'gemini', path: join(dir, 'gemini') },
    ],
    logger,
    env: {},
  });
  await library.load();
  assert.equal(library.search('good line').count, 1, 'the rest of the file loads');
  assert.ok(
    logger.lines.some((l) => l.includes('11111111-2222-4333-8444-555555555555.jsonl:1: skipped')),
    logger.lines.join('\n'),
  );
  for (const line of logger.lines) assert.ok(!line.includes(secret.slice(0, 8)), `no part of the secret in: ${line}`);
});

test('e-mail addresses found from their @ signs are exactly those the full expression finds', () => {
  const reference = (text: string): string =>
    text.replace(new RegExp(EMAIL.source, EMAIL.flags), (m: string, at: number, whole: string) => {
      const local = m.slice(0, m.indexOf('@'));
      return local.toLowerCase() !== 'git' && !local.endsWith('.') && whole[at + m.length] !== '/' ? EMAIL_MASK : m;
    });
  const pieces = ['a', 'Z', '0', '.', '-', '_', '%', '+', '@', '/', ' ', 'git', 'é', 'com', 'io', 'x'.repeat(70), 'ab.cd', '@@', '.@'];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
      const text = parts.join('');
      assert.equal(maskEmails(text), reference(text), text);
    }),
    { numRuns: 5000, seed: 20261130 },
  );
});
