/** How a team session's id is told from a local one (a module of its own: clients read it without the team view). */
export const TEAM_PREFIX = 'team:';

export function isTeamId(name: unknown): name is string {
  return typeof name === 'string' && name.startsWith(TEAM_PREFIX);
}
