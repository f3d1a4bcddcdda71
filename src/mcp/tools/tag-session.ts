import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Engine } from '../../engine/api.js';
import { tagResponseSchema } from '../../core/contracts.js';
import { answer, ok } from '../respond.js';
import { sessionNameField, tagListField } from '../schemas.js';

export function registerTagSession(server: McpServer, ready: Promise<Engine>): void {
  server.registerTool(
    'tag_session',
    {
      title: 'Tag a session',
      description:
        'Adds tags to a past session so that it can be found by them later (search_session and search_context take `tags`). ' +
        'Tags are kept in the data folder, never in the transcript, and survive rebuilds. Returns the tags given and the ones the session carries by itself.',
      inputSchema: { id: sessionNameField, tags: tagListField },
      outputSchema: tagResponseSchema.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const engine = await ready;
        return ok(await engine.tag(args.id, args.tags), 'json');
      }),
  );
}
