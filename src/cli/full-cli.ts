/**
 * How the command line's bundle (quick.ts) imports the full command line when its entry (start.ts) runs it from V8's
 * code cache: through a function the entry leaves, since the bundle is then compiled by `vm.Script`, whose own
 * `import()` needs an experimental option that prints a warning on every command.
 */
const FULL_CLI = Symbol.for('session-search.full-cli');
type Importer = (url: string) => Promise<unknown>;

/** Called by the entry before it runs the bundle from the code cache. */
export function importThroughEntry(importer: Importer): void {
  (globalThis as { [FULL_CLI]?: Importer })[FULL_CLI] = importer;
}

/** Imports the full command line (its URL): through the entry where it left a way, else here. */
export function importFullCli(url: string): Promise<unknown> {
  const viaEntry = (globalThis as { [FULL_CLI]?: Importer })[FULL_CLI];
  return viaEntry ? viaEntry(url) : import(url);
}
