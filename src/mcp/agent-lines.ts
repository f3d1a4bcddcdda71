/**
 * The agent's side of an MCP server on stdio, before anything heavy is loaded: its lines are read from the start, and
 * its `initialize` is answered at once (the server's name, version, tools capability and instructions are known without
 * the engine), so an agent's start-up does not wait for the engine to be found, started or loaded. Every line, that
 * `initialize` included, is then handed in order to whoever serves behind (the relay to the engine, or the MCP SDK's
 * server in this process), which must not answer that `initialize` again (`answeredId`).
 *
 * The answer is the SDK's own (checked by test/unit/mcp-agent-lines.test.ts against the SDK server's): the protocol
 * version the agent asked for when supported, else the latest.
 */
import { PRODUCT_VERSION } from '../version.js';

export const SERVER_NAME = 'session-search';
export const SERVER_VERSION = PRODUCT_VERSION;
export const SERVER_INSTRUCTIONS =
  "Search and read the developer's past conversations with coding agents. Start with search_session or search_context; read details with get_session or read_session; tag what is worth finding again with tag_session; get_preferences says how the developer likes to work.";
/** The MCP protocol versions the SDK's server speaks, newest first (as `@modelcontextprotocol/sdk` lists them). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

interface Request {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: { protocolVersion?: unknown };
}

/** The answer to an `initialize` request, as the server behind would give it. */
export function initializeAnswer(request: Request): object {
  const asked = request.params?.protocolVersion;
  const protocolVersion = typeof asked === 'string' && PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0];
  return {
    result: {
      protocolVersion,
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
      instructions: SERVER_INSTRUCTIONS,
    },
    jsonrpc: '2.0',
    id: request.id,
  };
}

/** The agent's lines, read from the start, with its first `initialize` answered at once. */
export class AgentLines {
  /** The id of the `initialize` answered here: the server behind must not answer it again. */
  answeredId: Request['id'];
  private readonly queued: string[] = [];
  private consumer: ((line: string) => void) | undefined;
  private done = false;
  private onEnd: (() => void) | undefined;

  constructor(input: NodeJS.ReadableStream, write: (line: string) => void) {
    // (characters split between chunks are joined before a line is read)
    input.setEncoding('utf8');
    let buffered = '';
    input.on('data', (chunk: string) => {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        this.line(buffered.slice(0, end).replace(/\r$/, ''), write);
        buffered = buffered.slice(end + 1);
      }
    });
    input.once('end', () => {
      this.line(buffered, write);
      this.done = true;
      this.onEnd?.();
    });
  }

  private line(text: string, write: (line: string) => void): void {
    if (!text.trim()) return;
    if (this.answeredId === undefined && text.includes('"initialize"')) {
      try {
        const message = JSON.parse(text) as Request;
        if (message?.method === 'initialize' && message.id !== undefined && message.id !== null) {
          this.answeredId = message.id;
          write(`${JSON.stringify(initializeAnswer(message))}\n`);
        }
      } catch {
        // (not JSON: the server behind says so)
      }
    }
    if (this.consumer) this.consumer(text);
    else this.queued.push(text);
  }

  /** Hands every line, those read so far first, to `consumer`; resolves when the agent closes its end. */
  take(consumer: (line: string) => void): Promise<void> {
    this.consumer = consumer;
    for (const line of this.queued.splice(0)) consumer(line);
    return this.done ? Promise.resolve() : new Promise((resolve) => (this.onEnd = resolve));
  }
}
