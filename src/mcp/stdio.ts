/** Entry point of dist/mcp.js: `node dist/mcp.js [--root SOURCE=PATH ...] [--data DIR] [--verbose]`. */
import { parseCli, UsageError } from '../cli/args.js';
import { runStdioServer } from './run.js';

try {
  const options = parseCli(['mcp', ...process.argv.slice(2)], process.env);
  runStdioServer({ roots: options.roots, dataDir: options.dataDir, archive: options.archive, verbose: options.verbose }).catch((err: unknown) => {
    process.stderr.write(`session-search mcp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
} catch (err) {
  process.stderr.write(`session-search mcp: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = err instanceof UsageError ? 2 : 1;
}
