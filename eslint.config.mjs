// @ts-check
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/out/**', 'node_modules/**', '.cache/**', 'dist/**', '**/*.tmp.js', '**/*.d.ts'],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // The language service is pure: no editor API, no transport, no file system or network.
    files: ['server/src/service/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['vscode', 'vscode-languageserver', 'vscode-languageserver/node', 'fs', 'node:fs', 'http', 'node:http', 'https', 'node:https', 'child_process', 'node:child_process'],
          patterns: [{ group: ['../cli/*', '../cli', '../server', '**/lsp', '**/lsp/**', 'vscode-languageserver/*'], message: 'The service is pure: no transport, CLI or I/O.' }],
        },
      ],
    },
  },
  {
    // The server and CLI never import the editor API.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/service/**'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'] }] },
  },
  {
    // Node I/O shared by the CLI and the language server (definitions loading, file discovery): no CLI, no transport.
    files: ['server/src/node/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['vscode', 'vscode-languageserver', 'vscode-languageserver/node'],
          patterns: [{ group: ['../cli/*', '../cli', '**/lsp', '**/lsp/**', '../server'], message: 'server/src/node is shared by both faces: it imports neither.' }],
        },
      ],
    },
  },
  {
    // The client never imports the server's code: it talks to it over LSP. The one exception is '#protocol'
    // (server/src/lsp/protocol.ts: the custom requests' names and shapes, constants, and types only from the service).
    files: ['client/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**', '\\#server/**', '\\#service', '\\#features'], message: "Talk to the server over LSP (its requests' names and shapes: '#protocol')." }] }] },
  },
  {
    // The api layer is shared by the extension, the CLI and the tests: no editor API, no server code.
    files: ['client/src/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'client/src/api has no editor API: inject auth, settings and cancellation.' }, 'vscode-languageclient', 'vscode-languageclient/node'],
          patterns: [{ group: ['**/server/**', '\\#server/**', '\\#service', '\\#features', '../commands', '../commands/*', '../extension'], message: 'client/src/api depends on nothing of the extension or the server.' }],
        },
      ],
    },
  },
  {
    // The web build (VS Code for the Web): the extension and the server's worker entry run in a browser: no Node module.
    files: ['client/src/browser/**/*.ts', 'server/src/lsp/browser/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['vscode-languageclient/node', 'vscode-languageserver/node'],
          patterns: [
            { group: ['node:*', 'fs', 'path', 'http', 'https', 'child_process', 'os', 'url'], message: 'The web build runs in a browser: no Node module.' },
            // lsp/node/ (the Node host: nodeHost, workspaceDefinitions, workspaceConfig, quotaFiles, idleCollection, serverArgs) and server/src/node/.
            { group: ['**/node', '**/node/*', '../../server', '../../cli', '../../cli/*'], message: 'Node-only server code: the browser host is lsp/browser/browserHost.ts.' },
            { group: ['**/server/**', '\\#server/**', '\\#service', '\\#features'], message: "Talk to the server over LSP (its requests' names and shapes: '#protocol')." },
          ],
        },
      ],
    },
  },
  {
    // The file the client imports as '#protocol': constants, and types only (erased), so that the
    // extension's bundle takes nothing else of the server.
    files: ['server/src/lsp/protocol.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['*'], allowTypeImports: true, message: 'protocol.ts is imported by the client: types only.' }] }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
