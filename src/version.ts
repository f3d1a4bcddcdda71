/** The product's version: what the MCP server reports. */
export const PRODUCT_VERSION = '0.1.0';

declare const SESSION_SEARCH_BUILD: string | undefined;

/** A hash of the sources the bundles were built from (set by esbuild.mjs; "source" when running from TypeScript). */
export const BUILD = typeof SESSION_SEARCH_BUILD === 'string' ? SESSION_SEARCH_BUILD : 'source';

/**
 * This build's identity, compared by an engine and its clients: the version and the build, so that a new build takes
 * over from the engine an older one started.
 */
export const ENGINE_VERSION = `${PRODUCT_VERSION}+${BUILD}`;

declare const SESSION_SEARCH_BUILT: number | undefined;

/**
 * When this build was made (ms since 1970; 0 from TypeScript): of two builds, the later one's engine serves. A client of
 * an older build uses a newer engine (same protocol) rather than evicting it, so that two installs of different
 * versions on one data folder do not take the engine from each other in turn.
 */
export const ENGINE_BUILT = typeof SESSION_SEARCH_BUILT === 'number' ? SESSION_SEARCH_BUILT : 0;

/** What `session-search --version` prints: the version, the build and the day it was made. */
export function versionLine(): string {
  const day = ENGINE_BUILT ? `, ${new Date(ENGINE_BUILT).toISOString().slice(0, 10)}` : '';
  return `session-search ${PRODUCT_VERSION} (build ${BUILD}${day})\n`;
}
