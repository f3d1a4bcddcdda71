/**
 * Credentials written in sentences: every sentence of the labelled set, in every language it holds, loses its value and
 * keeps the rest; sentences about credentials that hold none stay as written; AWS temporary credentials go by their
 * shape; and a transcript that says a password in prose keeps it out of every answer and every file of the data folder.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createLibrary } from '../../src/core/library.js';
import { MemoryLogger } from '../../src/core/log.js';
import { maskText, SECRET_MASK } from '../../src/core/mask.js';
import { tempDir } from '../helpers.js';
import { PROSE_CONTEXTS, proseLookAlikes, proseValues } from '../../bench/credential-contexts.js';

test('a credential named in a sentence, in any of the languages of the set, is masked and the sentence around it stays', () => {
  let values = 0;
  for (const { text, kind } of PROSE_CONTEXTS)
    for (const value of proseValues(kind, 20)) {
      values++;
      assert.equal(maskText(text.replace('{}', value)), text.replace('{}', SECRET_MASK), `${text} with ${value}`);
    }
  assert.ok(values >= 600, `${values} values`);
});

test('sentences about credentials that give none stay readable', () => {
  const texts = proseLookAlikes();
  assert.ok(texts.length >= 250, `${texts.length} look-alikes`);
  for (const text of texts) assert.equal(maskText(text), text, text);
});

test('the value is masked wherever the sentence stands: inside a longer text, after a line break, quoted, at the end', () => {
  const value = 'Blu3Moon!Rising';
  for (const text of [
    `Okay.\nThe password for the build server is ${value}\nThanks`,
    `we agreed: the password for the build server is "${value}".`,
    `Run it again; the passphrase for the key is ${value}`,
    `ssh admin@10.0.0.4 with password ${value} then sudo -i`,
  ]) {
    const masked = maskText(text);
    assert.ok(!masked.includes(value), masked);
    assert.ok(masked.includes(SECRET_MASK));
  }
});

test('AWS temporary credentials and other documented token prefixes are masked by their shape, in any sentence', () => {
  const body = 'EJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQDx7mGvH4k9Q2mQpL0uYh8pJ3d5Xw2yB0a1c2d3e4f5g6AiBqv7w8x9y0z1A2B3C4D5E6F7G8H9I0J1K2L3M4N5O6P7Q8==';
  for (const token of [
    `IQoJb3JpZ2luX2Vj${body}`,
    `FwoGZXIvYXdzEBYaDNO${body}`,
    `sk-ant-oat01-${'a1B2c3D4e5F6g7H8i9J0'.repeat(4)}`,
    `whsec_${'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'}`,
    `pscale_tkn_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6'}`,
    `https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sig=${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8%2B'}`,
  ]) {
    const secret = token.includes('sig=') ? token.slice(token.indexOf('sig=') + 4) : token;
    const masked = maskText(`here it is: ${token} (do not share)`);
    assert.ok(!masked.includes(secret), masked);
    assert.match(masked, /^here it is: .*\[redacted-secret\] \(do not share\)$/);
  }
});

test('a password said in prose reaches neither an answer nor the data folder', async () => {
  const root = tempDir();
  const data = tempDir();
  const secret = 'Vx7-qTr9-Lm2k';
  const id = '33333333-3333-4333-8333-333333333333';
  mkdirSync(join(root, 'proj'), { recursive: true });
  const lines = [
    { type: 'user', message: { role: 'user', content: `deploy the staging box, the password for the build server is ${secret}` } },
    { type: 'assistant', message: { role: 'assistant', content: `Deploying now with password ${secret} as you said.` } },
  ].map((r, i) => JSON.stringify({ ...r, uuid: `u${i}`, sessionId: id, cwd: '/p', timestamp: `2026-03-01T10:00:0${i}Z` }));
  writeFileSync(join(root, 'proj', `${id}.jsonl`), `${lines.join('\n')}\n`);
  const library = createLibrary({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), dataDir: data, env: {} });
  await library.load();
  const answer = JSON.stringify(library.search('build server password'));
  assert.ok(answer.includes(`claude-code:${id}`), 'the session is found');
  assert.ok(!answer.includes(secret), 'the answer holds the password');
  const whole = JSON.stringify(await library.get(`claude-code:${id}`));
  assert.ok(whole.includes('the password for the build server is'), 'the session is read whole');
  assert.ok(!whole.includes(secret), 'the session holds the password');
  await library.close();
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
  assert.ok(files(data).length > 0);
  for (const file of files(data)) assert.ok(!readFileSync(file).includes(secret), `${file} holds the password`);
});
