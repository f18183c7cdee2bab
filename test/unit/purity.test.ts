import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import { REPO_ROOT } from '../support/corpus';

/** The rule ids the project's lint config reports for a text, as if it were the file at `file` (relative to the repository). */
async function lint(file: string, text: string): Promise<Array<{ line: number; rule: string | null }>> {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const [result] = await eslint.lintText(text, { filePath: path.join(REPO_ROOT, file) });
  return result.messages
    .filter((m) => m.ruleId !== '@typescript-eslint/no-unused-vars' && m.ruleId !== '@typescript-eslint/no-require-imports')
    .map((m) => ({ line: m.line, rule: m.ruleId }));
}

const PATHS_OUT = [
  "import { a } from '../../cli';",
  "import type { B } from '../../node/files';",
  "export { c } from '../../../../client/src/api/http';",
  "import * as fs from 'fs';",
  "import { readFile } from 'node:fs/promises';",
  "import * as os from 'os';",
  "import { Worker } from 'worker_threads';",
  "import type { D } from '#api';",
  "const e = () => require('../../startServer') as typeof import('../../serverHost');",
  "const f = () => import('child_process');",
  "import g = require('node:net');",
  "import h from '../../../../package.json';",
];

test('the purity lint catches every path out of server/src/service, whatever names it, at any depth', { timeout: 60_000 }, async () => {
  const text = PATHS_OUT.join('\n') + '\n';
  const found = await lint('server/src/service/quota/probe.ts', text);
  const local = found.filter((m) => m.rule === 'local/service-stays-inside');
  // Line 9 names two paths out (the require and the typeof import).
  assert.deepEqual(
    local.map((m) => m.line),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 10, 11, 12],
  );
  // The same paths one folder up are out too, and the same text outside the service is no concern of this rule.
  const shallow = await lint('server/src/service/probe.ts', text.replaceAll('../../', '../'));
  assert.equal(shallow.filter((m) => m.rule === 'local/service-stays-inside').length, 13);
  const outside = await lint('server/src/node/probe.ts', text);
  assert.deepEqual(
    outside.filter((m) => m.rule === 'local/service-stays-inside'),
    [],
  );
});

test('the purity lint lets the service name its own modules, packages and the JSON Schemas', { timeout: 60_000 }, async () => {
  const text = [
    "import { parseJson } from '../json';",
    "import type { SetModel } from '../model/policySet';",
    "import { parseTree } from 'jsonc-parser';",
    "import type { Range } from 'vscode-languageserver-types';",
    "const schema = require('../../../../schemas/policySetTypes.schema.json') as object;",
    'export { parseJson, parseTree, schema };',
    'export type { SetModel, Range };',
  ].join('\n');
  assert.deepEqual(await lint('server/src/service/quota/probe.ts', text + '\n'), []);
});
