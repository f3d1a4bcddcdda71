// ESLint flat config: typed rules for the whole tree, and the process boundaries the design depends on.
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Only src/extension/ may import vscode: the core runs in plain Node.' }] }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', 'test-results/**', 'bench/.out/**', 'scratch-tmp/**', '*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/core/**/*.ts', 'src/mcp/**/*.ts', 'src/cli/**/*.ts', 'src/server/**/*.ts', 'src/engine/**/*.ts'], rules: noVscode },
  // Processes that speak a protocol on stdout (or run detached, logging to a file) must never print to it.
  { files: ['src/mcp/**/*.ts', 'src/server/**/*.ts', 'src/core/**/*.ts', 'src/engine/**/*.ts'], rules: { 'no-console': 'error' } },
);
