/**
 * The MCP SDK's transport over the agent's lines (agent-lines.ts), for a server in this process: the lines read before
 * it started are delivered first, and its answer to the `initialize` already answered is not written again.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../core/errors.js';
import type { AgentLines } from './agent-lines.js';

export class AgentTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private dropped = false;

  constructor(
    private readonly agent: AgentLines,
    private readonly write: (line: string) => void,
  ) {}

  async start(): Promise<void> {
    void this.agent
      .take((line) => {
        let message: JSONRPCMessage;
        try {
          message = JSON.parse(line) as JSONRPCMessage;
        } catch (err) {
          this.onerror?.(new Error(`a line from the agent is not JSON (${errorMessage(err)})`));
          return;
        }
        this.onmessage?.(message);
      })
      .then(() => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const answer = message as { id?: unknown; result?: unknown; error?: unknown };
    if (!this.dropped && answer.id !== undefined && answer.id === this.agent.answeredId && ('result' in answer || 'error' in answer)) {
      this.dropped = true; // (the agent has its answer to initialize already)
      return;
    }
    this.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}
