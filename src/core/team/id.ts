/** How a team session's id is told from a local one (a module of its own: clients read it without the team view). */
export const TEAM_PREFIX = 'team:';

export function isTeamId(name: unknown): name is string {
  return typeof name === 'string' && name.startsWith(TEAM_PREFIX);
}

/** A team archive as a client names it: its database, and the machine this one pushes as (default: its host name). */
export interface TeamRef {
  url: string;
  machine?: string;
}
