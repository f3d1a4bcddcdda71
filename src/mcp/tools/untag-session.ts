import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Engine } from '../../engine/api.js';
import { tagResponseSchema } from '../../core/contracts.js';
import { answer, ok } from '../respond.js';
import { sessionNameField, tagListField } from '../schemas.js';

export function registerUntagSession(server: McpServer, ready: Promise<Engine>): void {
  server.registerTool(
    'untag_session',
    {
      title: 'Remove tags from a session',
      description:
        'Removes tags a person gave a session (tag_session). Tags it does not carry are ignored; the tags a session carries by itself (topic, source, project, branch) stay.',
      inputSchema: { id: sessionNameField, tags: tagListField },
      outputSchema: tagResponseSchema.shape,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const engine = await ready;
        return ok(await engine.untag(args.id, args.tags), 'json');
      }),
  );
}
