/**
 * The MCP server an agent starts, when the data folder's engine serves: a relay. It passes the agent's messages (one
 * JSON-RPC message per line on stdin) to the engine, which runs the MCP server (engine/mcp-session.ts), and writes the
 * engine's messages to stdout. The relay loads neither the MCP SDK nor the library, so each agent's server holds
 * little more than Node itself, and every agent shares the engine's one copy of both.
 *
 * When the engine goes away (a crash, a hand-over to a newer build), the next one is found or started: the session is
 * opened there again, the agent's `initialize` asked again (its answer kept from the agent), and the requests that
 * were not answered are asked again, but for a conversation being stored, which is answered with an error instead (a
 * conversation is stored once).
 */
import type { Logger } from '../core/log.js';
import { errorMessage } from '../core/errors.js';
import type { TeamRef } from '../core/team/id.js';
import type { EngineLink, RemoteEngine } from '../engine/client.js';
import { EngineMcpNotification, EngineMcpOpenRequest } from '../engine/protocol.js';
import type { AgentLines } from './agent-lines.js';

interface Message {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: { name?: string } & Record<string, unknown>;
}

/** The id under which the relay asks a new engine the agent's `initialize` again (its answer is the relay's own). */
const REPLAYED = 'session-search-relay:initialize';
/** How long a new engine may take to answer that `initialize` before the connection is given up. */
const REPLAY_MS = 20_000;

const isRequest = (m: Message): boolean => typeof m.method === 'string' && m.id !== undefined && m.id !== null;
const isResponse = (m: Message): boolean => m.method === undefined && m.id !== undefined && m.id !== null;
const keyOf = (id: Message['id']): string => JSON.stringify(id);

export interface RelayIo {
  /** The agent's lines (stdin), read since the server started, its `initialize` answered already (agent-lines.ts). */
  agent: AgentLines;
  /** Where the engine's messages are written, one per line (stdout). */
  write: (line: string) => void;
}

/** Relays one agent's MCP session to the engine until the agent closes its end. */
export function relayToEngine(engine: RemoteEngine, team: TeamRef | undefined, io: RelayIo, logger: Logger): Promise<void> {
  /** The agent's requests not yet answered, and the connection each was sent on. */
  const pending = new Map<string, { message: Message; on: number }>();
  let initialize: Message | undefined;
  let initialized = false;
  let replayed: (() => void) | undefined;
  const answerError = (m: Message, message: string): void => io.write(`${JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message } })}\n`);

  engine.onNotification(EngineMcpNotification.method, (params) => {
    const message = (params as { message: Message }).message;
    if (isResponse(message)) {
      if (message.id === REPLAYED) return replayed?.();
      const key = keyOf(message.id);
      if (initialize && keyOf(initialize.id) === key) initialized = true;
      pending.delete(key);
    }
    io.write(`${JSON.stringify(message)}\n`);
  });

  // on each engine (the first, and the next after a restart): the session opened, then what the last one left
  engine.onConnect(async (link: EngineLink) => {
    await link.request(EngineMcpOpenRequest.method, { team, cwd: process.cwd() });
    if (initialize && initialized) {
      let deadline: NodeJS.Timeout | undefined;
      const answered = new Promise<void>((resolve, reject) => {
        replayed = resolve;
        deadline = setTimeout(() => reject(new Error('the engine did not answer initialize')), REPLAY_MS);
      });
      await link.notify(EngineMcpNotification.method, { message: { ...initialize, id: REPLAYED } });
      await answered.finally(() => clearTimeout(deadline));
      await link.notify(EngineMcpNotification.method, { message: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    }
    for (const [key, entry] of pending) {
      if (entry.on === link.id) continue;
      if (entry.message.method === 'tools/call' && entry.message.params?.name === 'store_session') {
        pending.delete(key);
        answerError(entry.message, 'the engine stopped while storing the conversation: check with search_session before storing it again');
        continue;
      }
      entry.on = link.id;
      await link.notify(EngineMcpNotification.method, { message: entry.message });
    }
  });

  const forward = async (message: Message): Promise<void> => {
    // (the agent's initialize, answered as it came: the engine's session is initialized with it, its answer not relayed)
    const answered = message.method === 'initialize' && message.id !== undefined && message.id === io.agent.answeredId;
    if (message.method === 'initialize') initialize = message;
    let link: EngineLink;
    try {
      link = await engine.link();
    } catch (err) {
      if (isRequest(message)) answerError(message, errorMessage(err));
      return;
    }
    if (answered) {
      await link.notify(EngineMcpNotification.method, { message: { ...message, id: REPLAYED } }).catch(() => undefined);
      initialized = true;
      return;
    }
    // (in the order the agent wrote them: each message goes on once the link is known)
    if (isRequest(message)) pending.set(keyOf(message.id), { message, on: link.id });
    // (a request the agent gave up on is not asked again of the next engine)
    if (message.method === 'notifications/cancelled') pending.delete(keyOf(message.params?.requestId as Message['id']));
    // (a write refused by a connection going away: the request is asked again of the next engine, above)
    await link.notify(EngineMcpNotification.method, { message }).catch(() => undefined);
  };

  return io.agent.take((text) => {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch (err) {
      return logger.warn(`a line from the agent is not JSON, skipped (${errorMessage(err)})`);
    }
    if (!message || typeof message !== 'object') return logger.warn('a line from the agent is not a JSON-RPC message, skipped');
    void forward(message);
  });
}
