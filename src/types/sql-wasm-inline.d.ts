declare module 'sql.js/dist/sql-wasm-inline.js' {
  const init: unknown;
  export default init;
}
