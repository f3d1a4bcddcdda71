/**
 * The MCP server an agent starts relays its stdio to the engine (src/mcp/relay.ts). When the engine goes away under a
 * session, the next engine gets the session as the last one had it: opened, initialized as the agent asked, and asked
 * the requests left unanswered. A conversation being stored is not stored twice. Here the engine is a stand-in that
 * records what each connection was sent and answers `initialize` itself.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import type { EngineLink, RemoteEngine } from '../../src/engine/client.js';
import { MemoryLogger } from '../../src/core/log.js';
import { relayToEngine } from '../../src/mcp/relay.js';
import { AgentLines, initializeAnswer } from '../../src/mcp/agent-lines.js';
import { eventually } from '../eventually.js';

type Message = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string } };

function standIn() {
  const handlers = new Map<string, (params: unknown) => void>();
  const openers: ((link: EngineLink) => Promise<void>)[] = [];
  /** What each connection was sent: requests as `request <method>`, MCP messages as they came. */
  const sent = new Map<number, (Message | string)[]>();
  const answer = (message: Message): void => handlers.get('engine/mcp')!({ message });
  const linkNumbered = (id: number): EngineLink => {
    sent.set(id, []);
    return {
      id,
      request: async (method) => void sent.get(id)!.push(`request ${method}`),
      notify: async (_method, params) => {
        const message = (params as { message: Message }).message;
        sent.get(id)!.push(message);
        // (the engine's MCP server answers initialize at once; the rest when the test says)
        if (message.method === 'initialize') setImmediate(() => answer({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18' } }));
      },
    };
  };
  let current = Promise.resolve(linkNumbered(1));
  const engine = {
    onNotification: (method: string, handler: (params: unknown) => void) => handlers.set(method, handler),
    onConnect: (open: (link: EngineLink) => Promise<void>) => {
      openers.push(open);
      current = current.then(async (link) => (await open(link), link));
    },
    link: () => current,
  } as unknown as RemoteEngine;
  /** The engine dies and the next one is reached. */
  const restart = (id: number): Promise<EngineLink> => {
    const link = linkNumbered(id);
    current = (async () => {
      for (const open of openers) await open(link);
      return link;
    })();
    return current;
  };
  return { engine, sent, answer, restart };
}

test('after the engine restarts, the session is opened and initialized again, unanswered requests asked again, and a store not repeated', async () => {
  const { engine, sent, answer, restart } = standIn();
  const input = new PassThrough();
  const out: Message[] = [];
  const write = (line: string): void => void out.push(JSON.parse(line) as Message);
  const relayed = relayToEngine(engine, undefined, { agent: new AgentLines(input, write), write }, new MemoryLogger());
  const say = (m: Message): boolean => input.write(`${JSON.stringify(m)}\n`);
  const initialize: Message = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1' } },
  };
  say(initialize);
  await eventually(() => out.length === 1, 'initialize answered');
  say({ jsonrpc: '2.0', method: 'notifications/initialized' });
  // a message split across writes, with a character split across chunks
  const search = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_session', arguments: { query: 'café' } } })}\n`;
  const bytes = Buffer.from(search);
  const cut = bytes.indexOf(Buffer.from('é')) + 1;
  input.write(bytes.subarray(0, cut));
  input.write(bytes.subarray(cut));
  say({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'store_session', arguments: {} } });
  input.write('not json\n');
  // one the agent gave up on
  say({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_session', arguments: { query: 'slow' } } });
  say({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
  await eventually(() => sent.get(1)!.length === 7, 'all sent to the first engine', { debug: () => JSON.stringify(sent.get(1)) });
  assert.equal(sent.get(1)![0], 'request engine/mcpOpen');
  // the agent's initialize was answered as it came; the engine's session is initialized with it, its answer not relayed
  assert.deepEqual(out[0], initializeAnswer(initialize));
  assert.equal((sent.get(1)![1] as Message).method, 'initialize');
  assert.notEqual((sent.get(1)![1] as Message).id, 0);
  assert.equal((sent.get(1)![2] as Message).method, 'notifications/initialized');
  assert.equal(((sent.get(1)![3] as Message).params!.arguments as { query: string }).query, 'café');

  // the engine dies with requests 1 and 2 unanswered
  await restart(2);
  const second = sent.get(2)!;
  assert.equal(second[0], 'request engine/mcpOpen');
  assert.equal((second[1] as Message).method, 'initialize', 'the agent’s initialize asked again');
  assert.notEqual((second[1] as Message).id, 0, 'under an id of the relay’s own');
  assert.deepEqual((second[1] as Message).params, initialize.params);
  assert.equal((second[2] as Message).method, 'notifications/initialized');
  assert.deepEqual(
    second.slice(3).map((m) => (m as Message).id),
    [1],
    'the search asked again; the store not, nor the search given up on',
  );
  assert.equal(out.length, 2, 'the agent saw one initialize answer and the store’s error, nothing of the replay');
  assert.equal(out[1].id, 2);
  assert.match(out[1].error!.message, /stopped while storing/);

  answer({ jsonrpc: '2.0', id: 1, result: { content: [] } });
  assert.deepEqual(
    out.map((m) => m.id),
    [0, 2, 1],
  );
  // a third engine: nothing is left to ask again
  await restart(3);
  assert.deepEqual(
    sent.get(3)!.map((m) => (typeof m === 'string' ? m : m.method)),
    ['request engine/mcpOpen', 'initialize', 'notifications/initialized'],
  );
  input.end();
  await relayed;
});
