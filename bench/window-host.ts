/**
 * One VS Code window as bench:machine counts it: what the extension host holds for a window linked to the engine
 * (engine/window-link.ts, as src/extension/client.ts opens it). Its cost is this process's resident memory once linked
 * and after the window's requests, less what it held before linking with the same code loaded (the extension host
 * exists, and loads the extension, whatever answers it). Spoken to over IPC by bench/machine.ts.
 */
import { openWindowLink } from '../src/engine/window-link.js';
import type { ServerSettings } from '../src/protocol.js';

type Ask = { search: string } | { tree: true } | { cost: true };
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const settings = JSON.parse(process.argv[2]) as ServerSettings;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

gc();
const before = process.memoryUsage().rss;
const opened = await openWindowLink(settings, { entry: process.argv[3], logger: quiet, notify: () => undefined });
if ('reason' in opened) {
  process.send!({ error: `a window did not use the engine: ${opened.reason}` });
  process.exit(1);
}
const { engine } = opened;
process.on('message', (ask: Ask) => {
  const answer = async (): Promise<unknown> => {
    if ('search' in ask) return engine.request('sessions/search', { query: ask.search, limit: 10 });
    if ('tree' in ask) return engine.request('sessions/tree', { limit: 500 });
    gc();
    // (never below nothing: once V8 gives back the host's young generation, the host holds less than before it linked,
    // which the link did not save)
    return Math.max(0, process.memoryUsage().rss - before) / 1048576;
  };
  answer().then(
    (value) => process.send!({ value: 'cost' in ask ? value : true }),
    (err: unknown) => process.send!({ error: String(err) }),
  );
});
process.on('disconnect', () => void engine.close().then(() => process.exit(0)));
process.send!({ ready: true });
