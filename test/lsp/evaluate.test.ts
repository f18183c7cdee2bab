// policySet/evaluate: the language server answers what `policyset evaluate --format json` prints for the
// same documents (but for the CLI's hint about its flags), and InvalidParams without a target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startLanguageServer } from '../support/lspClient';
import { runCli } from '../support/run';
import { REPO_ROOT } from '../support/corpus';

const read = (file: string) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as unknown;

test('policySet/evaluate: the answer of policyset evaluate --format json; InvalidParams without a target', async () => {
  const client = await startLanguageServer();
  try {
    const definitions = fs.readdirSync(path.join(REPO_ROOT, 'examples/definitions')).map((f) => read(`examples/definitions/${f}`));
    const params = {
      target: read('examples/clean/contoso-baseline.json'),
      resources: read('examples/evaluate/key-vault.json'),
      definitions,
      assignment: read('examples/evaluate/assignment.json'),
      related: read('examples/evaluate/diagnostic-settings.json'),
    };
    const answer = (await client.request<{ results: Array<{ referenceId: string; outcome: string }> }>('policySet/evaluate', params))
      .result!;
    const cli = await runCli([
      'evaluate',
      'examples/clean/contoso-baseline.json',
      '-r',
      'examples/evaluate/key-vault.json',
      '-d',
      'examples/definitions',
      '-a',
      'examples/evaluate/assignment.json',
      '--related',
      'examples/evaluate/diagnostic-settings.json',
      '-f',
      'json',
    ]);
    // The same but for the CLI's hint on where definitions come from (its --definitions flag).
    assert.deepEqual(answer, JSON.parse(cli.stdout.replaceAll(' (give it with --definitions)', '')));
    assert.equal(answer.results.find((r) => r.referenceId === 'auditDiagnosticSettings')?.outcome, 'nonCompliant');
    const wrong = await client.request('policySet/evaluate', { resources: [] });
    assert.equal((wrong as { error?: { code: number } }).error?.code, -32602);
  } finally {
    await client.stop();
  }
});
