/**
 * Entry point of dist/mcp.js: `node dist/mcp.js [--root SOURCE=PATH ...] [--data DIR] [--verbose]`. The agent's lines
 * are read, and its `initialize` answered, before the rest of the server is even loaded (agent-lines.ts).
 */
import { AgentLines } from './agent-lines.js';

const write = (line: string): void => void process.stdout.write(line);
const agent = new AgentLines(process.stdin, write);
const { startStdio } = await import('./stdio-main.js');
startStdio(agent, write);
