import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Engine } from '../../engine/api.js';
import { preferencesResponseSchema } from '../../core/contracts.js';
import { answer, ok } from '../respond.js';

export function registerUpdatePreferences(server: McpServer, ready: Promise<Engine>): void {
  server.registerTool(
    'update_preferences',
    {
      title: "Set the developer's preferences",
      description:
        'Sets preferences by hand, merged with what was learned: {"testing": "Jest, Cypress"} sets one (it wins over the learned value), ' +
        'null or "" clears it (the learned value shows again). Kept in the data folder, masked. Returns every preference, as get_preferences.',
      inputSchema: {
        preferences: z
          .record(z.string().max(60), z.union([z.string(), z.null()]))
          .describe('Category: value, e.g. {"formatting": "2-space indent, no semicolons", "communication": null}.'),
      },
      outputSchema: { updated: z.literal(true), ...preferencesResponseSchema.shape },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const engine = await ready;
        return ok(await engine.updatePreferences(args.preferences), 'json');
      }),
  );
}
