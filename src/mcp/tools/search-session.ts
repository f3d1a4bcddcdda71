import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Engine } from '../../engine/api.js';
import type { Role, SourceId } from '../../core/model.js';
import { answer, fitResults, ok, resultChars } from '../respond.js';
import { searchResponseSchema } from '../../core/contracts.js';
import {
  dateField,
  branchField,
  limitField,
  modeField,
  projectField,
  projectScopeField,
  queryField,
  roleField,
  sourceField,
  allTagsField,
  tagsFilterField,
} from '../schemas.js';

/**
 * How long a search grouped by workspace reads before it answers with what it has read (and says so): well inside the
 * 60 s an MCP SDK client waits for a tool call by default (a common word over 10,000 sessions takes 6-15 s here).
 */
const GROUPED_MS = 30_000;

export function registerSearchSession(server: McpServer, ready: Promise<Engine>): void {
  server.registerTool(
    'search_session',
    {
      title: 'Search past agent sessions',
      description:
        'Keyword search over every stored conversation with a coding agent (Claude Code, Codex, CodeArchitect, ...). ' +
        'Use it to find what was decided, tried or fixed before. Case-insensitive; several words rank sessions holding more of them higher; ' +
        '"quoted phrases" must appear; -word excludes. Returns sessions sorted by relevance (0-1, topic matches weigh most) then date, ' +
        'each with up to 3 snippets and the turn ids (docids) they came from: pass an id to get_session, or a docid to read_session. ' +
        'Where a team archive is configured, sessions colleagues shared come too, with their owner and machine.',
      inputSchema: {
        query: queryField('Words to look for, e.g. "flaky date test" or "postgres migration -sqlite".'),
        date: dateField('Only this day'),
        dateFrom: dateField('From this day on'),
        dateTo: dateField('Up to this day'),
        limit: limitField('Maximum number of sessions. Default: all matches.'),
        source: sourceField,
        project: projectField,
        projectScope: projectScopeField,
        branch: branchField,
        role: roleField,
        mode: modeField,
        tags: tagsFilterField,
        allTags: allTagsField,
        groupBy: z
          .enum(['workspace'])
          .optional()
          .describe(
            'workspace: also answer with the matches grouped by workspace (repository and worktree): workspaces[{project, worktree, count, hits[]}] where each hit is an exchange (the message and its reply), top 50 per workspace with the full count, plus workspacesSearched and turnsMatched.',
          ),
      },
      outputSchema: searchResponseSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const engine = await ready;
        const options = {
          date: args.date,
          dateFrom: args.dateFrom,
          dateTo: args.dateTo,
          limit: args.limit,
          source: args.source as SourceId | undefined,
          project: args.project,
          projectScope: args.projectScope,
          branch: args.branch,
          role: args.role as Role | undefined,
          mode: args.mode,
          tags: args.tags,
          allTags: args.allTags,
          groupBy: args.groupBy,
          maxChars: resultChars(args.groupBy),
          maxMs: args.groupBy ? GROUPED_MS : undefined,
        };
        return ok(fitResults(await engine.search(args.query ?? '', options), 'results'));
      }),
  );
}
