import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Engine } from '../../engine/api.js';
import { preferencesResponseSchema } from '../../core/contracts.js';
import { answer, ok } from '../respond.js';
import { projectField } from '../schemas.js';

export function registerGetPreferences(server: McpServer, ready: Promise<Engine>): void {
  server.registerTool(
    'get_preferences',
    {
      title: "The developer's preferences",
      description:
        "How the developer likes to work, learned from their own past sessions (their prompts, not the agents' replies): coding style, formatting, " +
        'frameworks, testing, architecture, how answers should be (length, tone, form, examples), communication, the instruction files they keep; values they set by hand win. Each item says how many ' +
        'sessions show it and links to the turns (docids for read_session). Call it at the start of a task; the answer is short.',
      inputSchema: { project: projectField },
      outputSchema: preferencesResponseSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const engine = await ready;
        return ok(await engine.preferences(args.project), 'json');
      }),
  );
}
