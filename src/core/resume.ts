/**
 * How to go back into a session with the tool that wrote it, where the tool has a command for that (checked against
 * each tool's CLI: `claude --resume <id>` run in the session's project folder, `codex resume <id>`,
 * `gemini --resume <id>`, `opencode --session <id>`, `copilot --resume <id>`, `amp threads continue <id>`). Editors' chats (Copilot, Cursor, Cline, Roo) and aider have none.
 */
import type { SourceId } from './model.js';

const RESUME: Partial<Record<SourceId, (id: string) => string[]>> = {
  'claude-code': (id) => ['claude', '--resume', id],
  codex: (id) => ['codex', 'resume', id],
  gemini: (id) => ['gemini', '--resume', id],
  opencode: (id) => ['opencode', '--session', id],
  'copilot-cli': (id) => ['copilot', '--resume', id],
  amp: (id) => ['amp', 'threads', 'continue', id],
};

/** The command and its arguments, or undefined when the tool cannot resume a session by id. */
export function resumeArgs(session: { source: SourceId; nativeId: string; sourceDeleted?: boolean }): string[] | undefined {
  if (session.sourceDeleted) return undefined; // the tool deleted it: it has nothing to reopen
  if (!/^[\w.:-]+$/.test(session.nativeId)) return undefined; // an id that would need quoting is not one these tools use
  return RESUME[session.source]?.(session.nativeId);
}

/** The command as a person types it. */
export function resumeCommand(session: { source: SourceId; nativeId: string; sourceDeleted?: boolean }): string | undefined {
  return resumeArgs(session)?.join(' ');
}
