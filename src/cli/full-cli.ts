/**
 * Where the command line's entry (start.ts) leaves the function that imports the full command line for the bundle it
 * runs from V8's code cache (quick.ts): that bundle is compiled by `vm.Script`, whose own `import()` needs an
 * experimental option that prints a warning on every command.
 */
export const FULL_CLI = Symbol.for('session-search.full-cli');
