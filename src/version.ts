/** The product's version: what the MCP server reports, and what an engine and its clients compare (a new build hands over). */
export const PRODUCT_VERSION = '0.1.0';
