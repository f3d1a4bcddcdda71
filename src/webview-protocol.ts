/** Messages between the search panel (webview/) and the extension host (src/extension/panel.ts), both directions typed. */
import type { FailedWorkspace, IndexingState, PreferencesResponse, SearchMode, SearchResult, WorkspaceGroup, WorkspaceSummary } from './core/contracts.js';
import type { Role, SourceId, TurnKind } from './core/model.js';
import type { DecisionsResponse } from './core/answer/decision-list.js';

export interface PanelFilters {
  source?: SourceId;
  project?: string;
  branch?: string;
  role?: Role;
  kind?: TurnKind;
  dateFrom?: string;
  dateTo?: string;
  /** How results are ranked (hybrid when absent). */
  mode?: SearchMode;
  /** Only sessions carrying any of these tags (more of them first). */
  tags?: string[];
  /** Only sessions carrying all of `tags`. */
  allTags?: boolean;
  /** team: the team archive too. */
  scope?: 'local' | 'team';
}

export interface PanelTurn {
  id: string;
  index: number;
  role: Role;
  kind: TurnKind;
  /** The tool's name, for tool calls and their output. */
  tool?: string;
  text: string;
  timestamp?: string;
  line?: number;
  /** [start, end) ranges of `text` matching the query the reader was opened from. */
  highlights: [number, number][];
}

export type ToPanel =
  | { type: 'init'; sources: SourceId[]; /** A team archive is configured: the panel offers its scope. */ team: boolean }
  | {
      type: 'results';
      query: string;
      results: SearchResult[];
      count: number;
      /** How many sessions matched, where more did than the results hold. */
      matched?: number;
      tookMs: number;
      indexing?: IndexingState;
      alsoMatched?: string[];
      note?: string;
      mode?: SearchMode;
      /** The team archive could not answer: why (the results are local). */
      teamNotice?: string;
    }
  /** One workspace of search `searchId` answered (its group of exchanges), or failed (why). */
  | { type: 'workspace'; searchId: number; group?: WorkspaceGroup; failed?: FailedWorkspace }
  /** Every workspace of search `searchId` has answered: how many were searched, matched, failed; or why it stopped. */
  | { type: 'workspacesDone'; searchId: number; summary?: WorkspaceSummary; error?: string; tookMs: number }
  | { type: 'context'; sessionId: string; topic: string; hitIndex: number; first: number; turns: PanelTurn[]; total: number; notes?: string[] }
  | { type: 'preferences'; value: PreferencesResponse }
  | { type: 'decisions'; value: DecisionsResponse }
  | { type: 'error'; message: string };

export type FromPanel =
  | { type: 'ready' }
  /**
   * `searchId` grows with each search: what comes back for an older one is dropped. `limit`: more results of the same
   * search (Show More), its workspace view left as it is.
   */
  | { type: 'search'; searchId: number; query: string; filters: PanelFilters; limit?: number }
  | { type: 'openContext'; sessionId: string; topic: string; turnId: string; query: string }
  | { type: 'more'; direction: 'earlier' | 'later' }
  | { type: 'openRaw'; sessionId: string; line?: number }
  | { type: 'copy'; text: string }
  | { type: 'export'; sessionId: string }
  | { type: 'exportResults'; query: string; filters: PanelFilters }
  | { type: 'preferences' }
  /** The Decisions section: of the project filter's project, else of every project. */
  | { type: 'decisions'; project?: string }
  | { type: 'editPreference'; category: string; value: string };

/** Turns shown either side of a hit, and added by "Show earlier" / "Show later". */
export const CONTEXT_TURNS = 4;
export const MORE_TURNS = 6;
/** Sessions the panel's search shows at first, and Show More adds each time, up to MAX_RESULTS. */
export const RESULTS = 100;
export const MAX_RESULTS = 1000;
