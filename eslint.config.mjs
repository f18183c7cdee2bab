// @ts-check
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const SERVICE = path.join(ROOT, 'server/src/service');
/** Data the service may read from outside its folder: the JSON Schemas (bundled as data, no code). */
const SERVICE_DATA = path.join(ROOT, 'schemas');
const BUILTINS = new Set(builtinModules);

/**
 * The service is pure (docs/architecture.md): every module it names stays inside server/src/service or is a
 * package. Each specifier is checked, whatever names it (import and export, with `type` or without, `import x =
 * require()`, `require()` and `import()` calls, `typeof import()`): a Node built-in (`node:*`, `fs`,
 * `fs/promises`, ...), a relative path that resolves outside server/src/service (at any depth), an absolute
 * path or a `#` import (the package's own import map, which points outside) is an error. The one exception
 * is a JSON file of schemas/ (data).
 * @type {import('eslint').Rule.RuleModule}
 */
const serviceStaysInside = {
  meta: {
    type: 'problem',
    messages: {
      builtin: "The service is pure: no Node module ('{{specifier}}'); I/O belongs to server/src/node or the hosts.",
      outside: "The service is pure: '{{specifier}}' resolves outside server/src/service ({{target}}).",
      importMap: "The service is pure: '{{specifier}}' is the package's import map, which points outside server/src/service.",
    },
    schema: [],
  },
  create(context) {
    const dir = path.dirname(context.filename);
    /** @param {any} node */
    const check = (node) => {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const specifier = node.value;
      if (specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0])) {
        context.report({ node, messageId: 'builtin', data: { specifier } });
      } else if (specifier.startsWith('#')) {
        context.report({ node, messageId: 'importMap', data: { specifier } });
      } else if (specifier.startsWith('.') || path.isAbsolute(specifier)) {
        const target = path.resolve(dir, specifier);
        const inside = (root) => {
          const relative = path.relative(root, target);
          return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
        };
        if (!inside(SERVICE) && !(inside(SERVICE_DATA) && target.endsWith('.json'))) {
          context.report({
            node,
            messageId: 'outside',
            data: { specifier, target: path.relative(ROOT, target).split(path.sep).join('/') },
          });
        }
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node.arguments[0]);
      },
      /** @param {any} node */
      TSExternalModuleReference: (node) => check(node.expression),
      /** @param {any} node */
      TSImportType: (node) => check(node.source ?? node.argument?.literal),
    };
  },
};

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
    // Packages by name here; every path out of server/src/service and every Node module by serviceStaysInside.
    files: ['server/src/service/**/*.ts'],
    plugins: { local: { rules: { 'service-stays-inside': serviceStaysInside } } },
    rules: {
      'local/service-stays-inside': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: ['vscode', 'vscode-languageserver', 'vscode-languageserver/node'],
          patterns: [
            {
              group: ['vscode-languageserver/*', 'vscode-languageclient', 'vscode-languageclient/*'],
              message: 'The service is pure: no transport, CLI or I/O.',
            },
          ],
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
          patterns: [
            {
              group: ['../cli/*', '../cli', '**/lsp', '**/lsp/**', '../server'],
              message: 'server/src/node is shared by both faces: it imports neither.',
            },
          ],
        },
      ],
    },
  },
  {
    // The client never imports the server's code: it talks to it over LSP. The one exception is '#protocol'
    // (server/src/lsp/protocol.ts: the custom requests' names and shapes, constants, and types only from the service).
    files: ['client/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '\\#server/**', '\\#service', '\\#features'],
              message: "Talk to the server over LSP (its requests' names and shapes: '#protocol').",
            },
          ],
        },
      ],
    },
  },
  {
    // The api layer is shared by the extension, the CLI and the tests: no editor API, no server code.
    files: ['client/src/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'client/src/api has no editor API: inject auth, settings and cancellation.' },
            'vscode-languageclient',
            'vscode-languageclient/node',
          ],
          patterns: [
            {
              group: ['**/server/**', '\\#server/**', '\\#service', '\\#features', '../commands', '../commands/*', '../extension'],
              message: 'client/src/api depends on nothing of the extension or the server.',
            },
          ],
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
            {
              group: ['node:*', 'fs', 'path', 'http', 'https', 'child_process', 'os', 'url'],
              message: 'The web build runs in a browser: no Node module.',
            },
            // lsp/node/ (the Node host: nodeHost, workspaceDefinitions, workspaceConfig, quotaFiles, idleCollection, serverArgs) and server/src/node/.
            {
              group: ['**/node', '**/node/*', '../../server', '../../cli', '../../cli/*'],
              message: 'Node-only server code: the browser host is lsp/browser/browserHost.ts.',
            },
            {
              group: ['**/server/**', '\\#server/**', '\\#service', '\\#features'],
              message: "Talk to the server over LSP (its requests' names and shapes: '#protocol').",
            },
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
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['*'], allowTypeImports: true, message: 'protocol.ts is imported by the client: types only.' }] },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
