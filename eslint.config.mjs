// ESLint over the sources, tests and scripts: typescript-eslint's recommended rules and the layers
// of the code (README "Development"). Import cycles are checked by dependency-cruiser
// (.dependency-cruiser.cjs), because import-x's no-cycle skips type-only imports; so is the port
// (the surfaces import src/core only through src/core/port), which dependency-cruiser checks on
// resolved paths, re-exports and type-only imports included.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const vscode = {
  name: 'vscode',
  message: 'Only src/host and src/extension.ts run inside VS Code: the core, shared, CLI and webview layers never import vscode.',
};
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
  name,
  message: 'Webview code runs in the browser and modules shared with it cannot use Node.js modules.',
}));
const layer = (group, message) => ({ group, message });
const hostOrCli = layer(['**/host', '**/host/**', '**/cli', '**/cli/**', '**/extension'], 'The host and the CLI are built on this layer, not the other way round.');

export default tseslint.config(
  { ignores: ['dist/', 'out/', 'test-results/', '.vscode-test/', 'bench/.work/', '**/fixtures/', 'sample/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a value kept on purpose (an omitted key, a required parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/core/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [vscode], patterns: [hostOrCli] }] },
  },
  {
    files: ['src/cli/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [vscode], patterns: [layer(['**/host', '**/host/**', '**/extension'], 'The CLI runs without the extension host.')] }] },
  },
  {
    files: ['src/mcp/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [vscode], patterns: [layer(['**/host', '**/host/**', '**/extension'], 'The MCP server runs in the CLI process, without the extension host.')] }],
    },
  },
  {
    files: ['src/shared/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [vscode, ...nodeBuiltins], patterns: [hostOrCli] }] },
  },
  {
    files: ['webview-ui/**'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [vscode, ...nodeBuiltins], patterns: [layer(['**/src/*', '!**/src/shared', '**/src/*/**', '!**/src/shared/**'], 'Webviews share only src/shared with the host.')] },
      ],
    },
  },
  // Tests may reach into anything; what they check is the code under test.
  {
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-this-alias': 'off',
      'no-regex-spaces': 'off',
    },
  },
  // Plain JavaScript files are CommonJS scripts unless they are ES modules (.mjs).
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      // `const crypto = require('crypto')` shadows the global of the same module on purpose.
      'no-redeclare': ['error', { builtinGlobals: false }],
    },
  },
  {
    files: ['test/integration/**/*.js'],
    languageOptions: { globals: { ...globals.node, ...globals.mocha } },
  },
  // Functions evaluated in a browser page by playwright, written as one expression.
  {
    files: ['test/ui/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['test/webview/support/*.js'],
    // `__init` is defined in front of the stub by the harness (test/webview/support/harness.ts).
    languageOptions: { globals: { ...globals.browser, __init: 'readonly' } },
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
