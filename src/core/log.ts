/** The core logs through this interface; each front end decides where lines go (stderr, an output channel, nowhere). */
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
