/** The workspace view's answers (search_session with `groupBy: "workspace"`, and the search panel's groups). */
import { z } from 'zod';
import { TURN_KINDS, type TurnKind } from './model.js';

const range = z.tuple([z.number().int(), z.number().int()]);

export const workspaceGroupSchema = z.object({
  project: z.string().describe('The repository (main checkout) the workspace belongs to; empty for sessions without a folder.'),
  worktree: z.string().describe('The folder the sessions ran in (a worktree of `project`, or the same folder).'),
  name: z.string().describe("The worktree folder's name."),
  count: z.number().describe('Every matching turn in this workspace.'),
  hits: z
    .array(
      z.object({
        sessionId: z.string(),
        topic: z.string(),
        turnId: z.string().describe('The matching turn (a docid for read_session).'),
        date: z.string(),
        user: z.string().describe("The person's message of the exchange."),
        reply: z.string().describe('The reply it got (or the matching tool turn).'),
        userHighlights: z.array(range),
        replyHighlights: z.array(range),
        match: z.string().optional().describe('Where the match is in neither: a few lines of the matching turn (a tool output, a file read…) around it.'),
        matchKind: z
          .enum(TURN_KINDS as [TurnKind, ...TurnKind[]])
          .optional()
          .describe('The kind of the matching turn, with `match`.'),
        matchHighlights: z.array(range).optional(),
      }),
    )
    .describe('The first 50 exchanges holding a match, best sessions first; several matches in one exchange show once.'),
});
export type WorkspaceGroup = z.infer<typeof workspaceGroupSchema>;

export const failedWorkspaceSchema = workspaceGroupSchema.pick({ project: true, worktree: true, name: true }).extend({
  reason: z.string().describe('Why it could not be searched; searching again retries it (its transcripts are being read again).'),
});
export type FailedWorkspace = z.infer<typeof failedWorkspaceSchema>;

/** What a search over every workspace found, once every workspace has answered (or failed). */
export const workspaceSummarySchema = z.object({
  workspacesSearched: z.number().describe('How many workspaces were searched (hold sessions that pass the filters).'),
  workspacesMatched: z.number().describe('How many of them hold a matching turn.'),
  workspacesFailed: z.number().describe('How many could not be searched: searching again retries them.'),
  turnsMatched: z.number().describe('How many turns matched, in every workspace that answered.'),
});
export type WorkspaceSummary = z.infer<typeof workspaceSummarySchema>;
