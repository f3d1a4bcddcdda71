/**
 * The embedding endpoint client against a local server speaking Ollama's and the OpenAI-compatible protocol: vectors in
 * the order asked, batched, tried again after a busy answer, a clear error for an unknown model, a slow or dead
 * endpoint; only loopback addresses unless allowed.
 */
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { checkEmbedConfig, embedConfigFromEnv, isLoopback } from '../../src/core/embed/config.js';
import { BATCH, EndpointEmbedder, endpointUrls } from '../../src/core/embed/endpoint.js';
import { fakeVector, startFakeEndpoint, type FakeEndpoint } from '../embed-server.js';

let server: FakeEndpoint;
before(async () => {
  server = await startFakeEndpoint();
});
after(() => server.close());

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
};

const texts = Array.from({ length: BATCH * 2 + 5 }, (_, i) => `text number ${'abcdefghij'[i % 10]} about ${i % 3 ? 'retry' : 'database'} ${i}`);

for (const [name, endpoint, path] of [
  ['Ollama at its base address', '', '/api/embed'],
  ['OpenAI-compatible under /v1', '/v1', '/v1/embeddings'],
  ['Ollama named in full', '/api/embed', '/api/embed'],
] as const) {
  test(`${name}: one unit vector per text, in order, in batches`, async () => {
    server.requests.length = 0;
    const embedder = new EndpointEmbedder({ endpoint: server.url + endpoint, model: 'fake-embed' });
    const vectors = await embedder.embed(texts);
    assert.equal(vectors.length, texts.length);
    vectors.forEach((v, i) => {
      const norm = Math.hypot(...v);
      assert.ok(Math.abs(norm - 1) < 1e-5, `vector ${i} has length ${norm}`);
      assert.ok(cosine(v, fakeVector(texts[i])) > 0.9999, `vector ${i} is not the text's`);
    });
    assert.deepEqual(
      server.requests.map((r) => [r.path, r.input.length]),
      [
        [path, BATCH],
        [path, BATCH],
        [path, 5],
      ],
    );
  });
}

test('a bare address of a server that speaks only the OpenAI protocol is found on the second try, then asked directly', async () => {
  server.serves = 'openai';
  server.requests.length = 0;
  try {
    const embedder = new EndpointEmbedder({ endpoint: server.url, model: 'fake-embed' });
    assert.equal((await embedder.embed(['one text here'])).length, 1);
    await embedder.embed(['another text']);
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/v1/embeddings', '/v1/embeddings'],
    );
    assert.deepEqual(
      endpointUrls('http://h:1/v1/').map((u) => u.protocol),
      ['openai'],
    );
  } finally {
    server.serves = 'both';
  }
});

test('a busy endpoint (503, 429) is asked again after a pause; an unknown model is an error at once that names it', async () => {
  const embedder = new EndpointEmbedder({ endpoint: server.url, model: 'fake-embed' }, [10, 10]);
  server.failNext(2, 503);
  assert.equal((await embedder.embed(['after two busy answers'])).length, 1);
  server.failNext(3, 429);
  await assert.rejects(embedder.embed(['three busy answers']), /429/);
  server.requests.length = 0;
  const unknown = new EndpointEmbedder({ endpoint: `${server.url}/api/embed`, model: 'no-such-model' }, [10, 10]);
  await assert.rejects(unknown.embed(['x y z']), /404.*no-such-model/);
  assert.equal(server.requests.length, 1, 'an unknown model is not asked again');
});

test('a slow endpoint times out, a dead one says it did not answer', async () => {
  server.stallMs = 500;
  try {
    const embedder = new EndpointEmbedder({ endpoint: server.url, model: 'fake-embed' }, []);
    await assert.rejects(embedder.embed(['slow'], { timeoutMs: 50 }), /did not answer/);
  } finally {
    server.stallMs = 0;
  }
  const dead = await startFakeEndpoint();
  const url = dead.url;
  await dead.close();
  await assert.rejects(new EndpointEmbedder({ endpoint: url, model: 'fake-embed' }, [5]).embed(['anyone there']), /did not answer \(ECONNREFUSED\)/);
});

test('only this machine unless allowed; a model is needed; the environment names a config', () => {
  for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'api.localhost']) assert.ok(isLoopback(new URL(`http://${host}:1`).hostname), host);
  for (const host of ['example.com', '10.0.0.1', '192.168.1.5', '[::2]', 'localhost.example.com'])
    assert.ok(!isLoopback(new URL(`http://${host}:1`).hostname), host);
  assert.throws(() => checkEmbedConfig({ endpoint: 'http://example.com:11434', model: 'm' }), /not on this machine/);
  assert.doesNotThrow(() => checkEmbedConfig({ endpoint: 'http://example.com:11434', model: 'm', allowRemote: true }));
  assert.throws(() => checkEmbedConfig({ endpoint: 'http://127.0.0.1:11434' }), /needs a model/);
  assert.throws(() => checkEmbedConfig({ endpoint: 'file:///etc/passwd', model: 'm' }), /http or https/);
  assert.throws(() => checkEmbedConfig({ endpoint: 'not a url', model: 'm' }), /not a URL/);
  assert.throws(() => checkEmbedConfig({ endpoint: 'http://127.0.0.1:1', model: 'm', folder: '/x' }), /not both/);
  assert.equal(checkEmbedConfig({ folder: '~/models/minilm' }).folder, join(homedir(), 'models/minilm'));
  assert.throws(() => checkEmbedConfig({ folder: 'models/minilm' }), /absolute path/);
  assert.deepEqual(embedConfigFromEnv({ SESSION_SEARCH_EMBED_ENDPOINT: ' http://127.0.0.1:1 ', SESSION_SEARCH_EMBED_MODEL: 'm' }), {
    endpoint: 'http://127.0.0.1:1',
    model: 'm',
    folder: undefined,
    allowRemote: undefined,
    weight: undefined,
  });
  assert.equal(embedConfigFromEnv({ SESSION_SEARCH_EMBED_MODEL: 'm' }), undefined);
});
