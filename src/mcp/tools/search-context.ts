import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Engine } from '../../engine/api.js';
import type { BlockType } from '../../core/model.js';
import { answer, ok } from '../respond.js';
import { contextResponseSchema } from '../../core/contracts.js';
import { blockTypeField, dateField, limitField, modeField, projectField, queryField, sourceField, allTagsField, tagsFilterField } from '../schemas.js';

export function registerSearchContext(server: McpServer, ready: Promise<Engine>): void {
  server.registerTool(
    'search_context',
    {
      title: 'Search context blocks (turns) of past sessions',
      description:
        'Finds the individual blocks (turns: conversation, file reads, diffs, notes, tool output) that answer a question such as ' +
        '"when did we decide to use PostgreSQL?". Each result has a calibrated score in 0-1, about the chance that the block ' +
        'is relevant (fitted on judged queries: about three in four blocks at 0.7 or more are), from how much of the question ' +
        'it holds, how well its session ranks and its kind; at the default threshold 0.7 the blocks come from the best-ranked ' +
        'session or two, lower it for more. ' +
        'Use blockId with read_session for the full text.',
      inputSchema: {
        query: queryField('A question or keywords.'),
        sessions: z.array(z.string().max(1024)).max(1000).optional().describe('Only these session ids. Omit to search all.'),
        tags: tagsFilterField,
        allTags: allTagsField,
        types: z
          .array(blockTypeField)
          .optional()
          .describe(
            'Only these block types: conversation, file, diff, note, tool, thinking, or decision (prompts and replies where something was settled: "let\'s use X", "we\'ll go with", "use X instead of Y"; the snippet is what was decided).',
          ),
        limit: limitField('Maximum results. Default 10.'),
        threshold: z.number().min(0).max(1).default(0.7).describe('Minimum score (0-1). Default 0.7.'),
        dateFrom: dateField('From this day on'),
        dateTo: dateField('Up to this day'),
        source: sourceField,
        project: projectField,
        mode: modeField,
      },
      outputSchema: contextResponseSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const engine = await ready;
        const options = {
          sessions: args.sessions,
          tags: args.tags,
          allTags: args.allTags,
          types: args.types as BlockType[] | undefined,
          limit: args.limit ?? 10,
          threshold: args.threshold,
          dateFrom: args.dateFrom,
          dateTo: args.dateTo,
          source: args.source,
          project: args.project,
          mode: args.mode,
        };
        return ok(await engine.searchContext(args.query ?? '', options));
      }),
  );
}
