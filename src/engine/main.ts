/**
 * The engine's own bundle (dist/serve.cjs): `serve` and its options, as the full CLI takes them, and nothing of the
 * other commands. Clients start it through engine/start.ts, which runs it from its code cache.
 */
import { parseCli, UsageError } from '../cli/args.js';
import { runServe } from './serve-command.js';

async function main(argv: string[]): Promise<void> {
  const options = parseCli(argv, process.env);
  if (options.command !== 'serve') throw new UsageError(`this is the engine's entry: it runs "serve", not "${options.command}"`);
  await runServe(options);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`session-search serve: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = err instanceof UsageError ? 2 : 1;
});
