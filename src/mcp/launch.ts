/**
 * How the MCP server is started, wherever a launch line is made: VS Code's MCP provider, the Claude Code launcher,
 * `session-search mcp-config`, and the benchmarks that measure what ships.
 *
 * The server relays an agent's requests to the engine and holds no index (src/engine), so it runs with a young
 * generation of 1 MB: measured at 10,000 sessions, a server's own memory after 20 searches with snippets fell from
 * 33 to 23 MB, and stayed there; by default V8 grows a young generation of up to 16 MB per half during such a burst
 * and gives it back only some seconds after it. Where it answers in process (no engine can serve), a warm load was not
 * slower with it, and a first load of 1,000 sessions took 8–33% longer (4–24% more CPU) and peaked 1–14% lower. The engine it starts
 * does not inherit the option (engine/client.ts). (VS Code's runtime, run as Node, is given it on its command line as
 * Node is.)
 */
export const MCP_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];

/** The arguments after the Node executable that start the server at `server` (dist/mcp.js) with `args`. */
export function mcpLaunchArgs(server: string, args: readonly string[] = []): string[] {
  return [...MCP_NODE_FLAGS, server, ...args];
}
