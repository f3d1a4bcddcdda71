/**
 * Lines of a transcript that could not be read (malformed, or too long even cut short) are logged by the readers with
 * the file and line; here they are also counted on the file's sessions, so that an answer can say what it left out.
 */
import type { Logger } from '../log.js';
import type { ParsedSession } from '../model.js';
import type { SourceAdapter, SourceContext } from './sources/types.js';

/** How many reasons a session keeps (the count is whole). */
const REASONS = 3;

/** The adapter's `readFile`, with the lines it skipped counted on the sessions it returns (`Session.unreadLines`). */
export async function readFileCounting(adapter: SourceAdapter, file: string, root: string, ctx: SourceContext): Promise<ParsedSession[]> {
  const skipped: string[] = [];
  const logger: Logger = {
    info: (m) => ctx.logger.info(m),
    warn: (m) => {
      if (m.startsWith(`${file}:`) && /\bskipped\b|\bcut \(the transcript keeps/.test(m)) skipped.push(m.slice(file.length + 1).trim());
      ctx.logger.warn(m);
    },
    error: (m) => ctx.logger.error(m),
  };
  const sessions = await adapter.readFile(file, root, { ...ctx, logger });
  if (skipped.length) for (const s of sessions) s.unreadLines = { count: skipped.length, reasons: skipped.slice(0, REASONS) };
  return sessions;
}
