/**
 * The agent's `initialize`, answered before the engine is reached, is the answer the MCP SDK's server gives: for every
 * protocol version an agent may ask (those the SDK speaks, an older or unknown one, none), the same result.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../../src/mcp/server.js';
import { AgentLines, initializeAnswer, PROTOCOL_VERSIONS } from '../../src/mcp/agent-lines.js';
import type { Engine } from '../../src/engine/api.js';

/** What the SDK's server (ours, as createServer makes it) answers to `initialize` with these params. */
async function sdkAnswer(params: Record<string, unknown>): Promise<unknown> {
  const server = createServer(new Promise<Engine>(() => undefined));
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await server.connect(ours);
  const answered = new Promise<unknown>((resolve) => (theirs.onmessage = resolve));
  await theirs.start();
  await theirs.send({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { capabilities: {}, clientInfo: { name: 'agent', version: '1' }, ...params } });
  const answer = await answered;
  await server.close();
  return answer;
}

test('the early answer to initialize is the SDK server’s, whatever protocol version the agent asks for', async () => {
  assert.deepEqual(PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS, 'the versions the SDK speaks');
  for (const protocolVersion of [...SUPPORTED_PROTOCOL_VERSIONS, '2023-01-01', 'not-a-version']) {
    const request = { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion } };
    assert.deepEqual(initializeAnswer(request), await sdkAnswer({ protocolVersion }), protocolVersion);
  }
});

test('the agent’s lines: initialize answered at once, every line handed on in order, those read before first', async () => {
  const input = new PassThrough();
  const written: string[] = [];
  const agent = new AgentLines(input, (line) => written.push(line));
  input.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'initialize', params: { protocolVersion: '2025-06-18' } })}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(written.length, 1);
  assert.equal((JSON.parse(written[0]) as { id: string; result: { protocolVersion: string } }).result.protocolVersion, '2025-06-18');
  assert.equal(agent.answeredId, 'a');
  const seen: string[] = [];
  const ended = agent.take((line) => seen.push((JSON.parse(line) as { method: string }).method));
  input.end('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
  await ended;
  assert.deepEqual(seen, ['initialize', 'notifications/initialized', 'tools/list']);
  assert.equal(written.length, 1, 'one answer only');
});
