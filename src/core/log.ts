/** The core logs through this interface; each front end decides where lines go (stderr, an output channel, nowhere). */
import { maskText } from './mask.js';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** Collects lines in memory: used by tests to assert that a skipped line was reported. */
export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`info ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error ${message}`);
  }
}

export function stderrLogger(verbose: boolean): Logger {
  const write = (level: string, message: string): void => {
    process.stderr.write(`[session-search] ${level}: ${message}\n`);
  };
  return {
    info: (m) => verbose && write('info', m),
    warn: (m) => verbose && write('warn', m),
    error: (m) => write('error', m),
  };
}

/**
 * V8 quotes the start of the text it failed to parse (`Unexpected token 'g', "{"a": ghp_12…"... is not valid JSON`):
 * a transcript line with a secret would put part of it in the log, too short for masking to recognise.
 */
const JSON_SNIPPET = /, (?:\.\.\.)?".*?"(?:\.\.\.)? is not valid JSON/g;

export function safeMessage(message: string): string {
  return maskText(message.replace(JSON_SNIPPET, ' (not valid JSON)'));
}

/** A logger whose lines never carry transcript secrets: parser snippets removed, the rest masked. */
export function safeLogger(logger: Logger): Logger {
  return {
    info: (m) => logger.info(safeMessage(m)),
    warn: (m) => logger.warn(safeMessage(m)),
    error: (m) => logger.error(safeMessage(m)),
  };
}
