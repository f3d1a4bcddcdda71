import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Engine } from '../../engine/api.js';
import { answer, fitResults, fitSession, ok } from '../respond.js';
import { getResponseSchema, listResponseSchema } from '../../core/contracts.js';
import { branchField, dateField, limitField, projectField, projectScopeField, sourceField } from '../schemas.js';

export function registerGetSession(server: McpServer, ready: Promise<Engine>): void {
  server.registerTool(
    'get_session',
    {
      title: 'Get or list past agent sessions',
      description:
        "With `filename`: returns one session (its markdown content or, in TOON format, its messages) by id, by the tool's own id, " +
        'or by CodeArchitect folder name (add -summary.md or -full.md to pick a file). Without `filename`: lists sessions newest first. ' +
        'format "auto" (default) uses TOON where it is smaller than JSON.',
      inputSchema: {
        filename: z.string().max(1024).optional().describe('Session id (from search results), tool session id, or CodeArchitect folder name. Omit to list.'),
        date: dateField('When listing: only this day'),
        format: z.enum(['json', 'toon', 'auto']).default('auto').describe('json, toon (about 40% fewer tokens on uniform data) or auto.'),
        limit: limitField('When listing: at most this many sessions.'),
        source: sourceField,
        project: projectField,
        projectScope: projectScopeField,
        branch: branchField,
      },
      // one session (with a name), or a list (without): the two answers' fields, each optional
      outputSchema: {
        success: z.boolean(),
        session: getResponseSchema.shape.session.optional(),
        sessions: listResponseSchema.shape.sessions.optional(),
        count: listResponseSchema.shape.count.optional(),
        format: listResponseSchema.shape.format.optional(),
        matched: listResponseSchema.shape.matched,
        note: z.string().optional().describe('Why the list is shorter than asked, and how to see the rest.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const engine = await ready;
        if (args.filename !== undefined) {
          const response = fitSession(await engine.get(args.filename, args.format));
          // The text answer carries the content once: in TOON mode the messages are already in `content`.
          const text = response.session.format === 'toon' ? { ...response, session: { ...response.session, messages: undefined } } : response;
          const result = ok(text, args.format === 'json' ? 'json' : 'auto');
          return { ...result, structuredContent: response as unknown as Record<string, unknown> };
        }
        const list = await engine.list({
          date: args.date,
          limit: args.limit,
          source: args.source,
          project: args.project,
          projectScope: args.projectScope,
          branch: args.branch,
          format: args.format,
        });
        return ok(fitResults(list, 'sessions'), args.format);
      }),
  );
}
