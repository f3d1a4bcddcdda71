/**
 * Secrets planted in real-format transcripts of every source never reach any surface a user or an agent sees, nor
 * any file of the data folder: the index, snippets, get, read, titles, the log, the archive, the snapshot, the built
 * CLI and the MCP server over stdio. Planted: a token of a known format, an e-mail address, and every credential
 * context of the labelled set (known only by where it stands), in the prompt and in a tool output; look-alikes that
 * are code stay readable.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openCore } from '../../src/core/library/open.js';
import { EMAIL_MASK, SECRET_MASK } from '../../src/core/mask.js';
import { MemoryLogger } from '../../src/core/log.js';
import { firstPrompt } from '../../src/core/model.js';
import { CONTEXTS } from '../../bench/credential-contexts.js';
import { ROOT, tempDir } from '../helpers.js';
import { writePlantedSessions } from '../planted.js';
import { SECRETS } from '../secrets.js';

/** A value of its own for each context (so that a leak names its context), low-entropy like the passwords people pick. */
const contextual = CONTEXTS.map((_, i) => `${['hunter', 'Sup3r', 'opaque'][i % 3]}${i}Zq${(i * 37) % 100}`);
const planted = CONTEXTS.map((c, i) => c.replace('{}', contextual[i]));
const half = Math.ceil(planted.length / 2);
/** Code that reads like a credential and is not: it must survive every surface as written. */
const STAY = ['PASSWORD_MIN_LENGTH = 8', 'const password = getPassword();', 'echo "$TOKEN" | docker login --password-stdin', 'password: string'];

test('secrets planted in transcripts of every source never reach the index, snippets, get, read, titles, the log, the archive, the snapshot, the CLI or the MCP server', async () => {
  const dir = tempDir();
  const secret = SECRETS.github;
  const email = 'qzxpersonal@example.org';
  const prompt = [`deploy canary with ${secret} for ${email}`, ...planted.slice(0, half)].join('\n\n');
  const output = [...planted.slice(half), ...STAY].join('\n\n');
  const roots = await writePlantedSessions(dir, prompt, output);
  const data = join(dir, 'data');
  const logger = new MemoryLogger();
  const library = openCore({ roots, logger, env: {}, dataDir: data });
  await library.load();
  const found = library.search('deploy canary');
  assert.deepEqual(found.results.map((r) => r.source).sort(), roots.map((r) => r.source).sort(), 'every source holds the planted session');
  assert.equal(library.search(secret).count, 0);
  assert.equal(library.search('qzxpersonal').count, 0);
  for (const value of contextual) assert.equal(library.search(`"${value}"`).count, 0, value);
  const surfaces: string[] = [JSON.stringify(found), JSON.stringify(library.list())];
  const readable: string[] = [];
  for (const r of found.results) {
    const got = JSON.stringify(await library.get(r.id, { format: 'json' }));
    surfaces.push(got, JSON.stringify(await library.read(r.id)));
    readable.push(got);
    for (const t of r.snippetTurnIds) surfaces.push(JSON.stringify(await library.read(t)));
  }
  // What the tree shows (titles, first prompts), the log, and every file in the data folder (archive, snapshot).
  for (const s of library.sessions.values()) surfaces.push(s.topic, firstPrompt(s) ?? '');
  surfaces.push(
    library
      .suggestTitles('deploy')
      .map((s) => s.topic)
      .join('\n'),
    logger.lines.join('\n'),
  );
  await library.close();
  const stored = readdirSync(data, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(data, f)).isFile());
  assert.ok(stored.some((f) => f.endsWith('snapshot.bin')) && stored.filter((f) => f.endsWith('.jsonl')).length >= roots.length, stored.join(', '));
  for (const f of stored) surfaces.push(readFileSync(join(data, f), 'latin1'));
  // The CLI, as a person runs it: search, list and get, human and JSON output.
  const rootArgs = roots.flatMap((r) => ['--root', `${r.source}=${r.path}`]);
  const run = (...args: string[]): string => {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args, ...rootArgs, '--data', data], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout + result.stderr;
  };
  surfaces.push(run('search', 'deploy', 'canary'), run('search', 'deploy', 'canary', '--json'), run('list', '--json'));
  for (const r of found.results) surfaces.push(run('get', r.id));
  assert.ok(surfaces.at(-1)!.includes('canary'), 'the CLI shows the session');
  // The MCP server over stdio, as an agent calls it: every tool that shows text.
  const client = new Client({ name: 'secrets-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'dist', 'mcp.js'), ...rootArgs, '--data', data], stderr: 'pipe' }),
  );
  try {
    const call = async (name: string, args: Record<string, unknown>): Promise<string> => JSON.stringify(await client.callTool({ name, arguments: args }));
    surfaces.push(await call('search_session', { query: 'deploy canary', limit: 20 }), await call('search_context', { query: 'deploy canary password' }));
    for (const r of found.results) {
      for (const format of ['json', 'markdown', 'toon']) surfaces.push(await call('get_session', { filename: r.id, format }));
      surfaces.push(await call('read_session', { docid: r.id }));
    }
  } finally {
    await client.close();
  }
  assert.ok(surfaces.at(-1)!.includes('canary'), `the MCP server shows the session: ${surfaces.at(-1)!.slice(0, 400)}`);
  for (const text of surfaces) {
    assert.ok(!text.includes(secret), 'no secret');
    assert.ok(!text.includes(email), 'no e-mail');
    for (const value of contextual)
      assert.ok(!text.includes(value), `no ${value} in ${text.slice(Math.max(0, text.indexOf(value) - 300), text.indexOf(value) + 60)}`);
  }
  assert.ok(surfaces.join('').includes(SECRET_MASK) && surfaces.join('').includes(EMAIL_MASK));
  // the code that only looks like credentials reads as written in every session
  for (const got of readable) for (const text of STAY) assert.ok(got.includes(JSON.stringify(text).slice(1, -1)), `${text} in ${got.slice(0, 200)}`);
});
