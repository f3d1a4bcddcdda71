import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Engine } from '../../engine/api.js';
import { PAGE_BYTES } from '../../core/answer/sessions.js';
import { readResponseSchema } from '../../core/contracts.js';
import { answer, ok } from '../respond.js';

export function registerReadSession(server: McpServer, ready: Promise<Engine>): void {
  server.registerTool(
    'read_session',
    {
      title: 'Read a session or one turn, page by page',
      description:
        `Returns the stored (masked) text behind a docid: a session id reads the whole session as markdown, a turn id ` +
        `(from snippetTurnIds in search results, e.g. a long tool output) reads that turn exactly as stored. Pages hold at most ` +
        `${PAGE_BYTES} bytes of UTF-8 (offsets and sizes are in bytes; pages never split a character): pass next_offset back as offset until it is null. Unknown ids answer found: false.`,
      inputSchema: {
        docid: z.string().max(1024).describe('A session id or a turn id from search results.'),
        offset: z.number().int().min(0).optional().describe('Byte offset to start from (next_offset of the previous page). Default 0.'),
      },
      outputSchema: readResponseSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const engine = await ready;
        return ok(await engine.read(args.docid, args.offset ?? 0), 'json');
      }),
  );
}
