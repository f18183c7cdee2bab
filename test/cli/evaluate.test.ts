// policyset evaluate and policyset test run as processes: the documented outcomes on the examples, the
// resource file shapes, the exit statuses, and the four formats of test (a wrong expectation fails).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, isCleanMessage } from '../support/run';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SET = 'examples/clean/contoso-baseline.json';
const DEFINITIONS = 'examples/definitions';
const STORAGE = 'examples/evaluate/storage-account.json';

const outcomes = (json: Json) => Object.fromEntries((json.results as Json[]).map((r) => [r.referenceId ?? r.definitionId, r.outcome]));

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-evaluate-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
};

describe('policyset evaluate', { concurrency: 4 }, () => {
  test('the example set on a storage account in eastus with TLS 1.0: each member as the definitions say', async () => {
    const result = await runCli(['evaluate', SET, '--resource', STORAGE, '--definitions', DEFINITIONS, '--format', 'json']);
    assert.equal(result.code, 1, result.stderr);
    const json = JSON.parse(result.stdout) as Json;
    assert.deepEqual(outcomes(json), {
      allowedLocations: 'nonCompliant',
      requireCostCenterTag: 'nonCompliant',
      requireOwnerTag: 'compliant',
      auditDiagnosticSettings: 'notApplicable',
      storageMinimumTls: 'nonCompliant',
      storageSecureTransfer: 'unknown',
      keyVaultDeletionProtection: 'unknown',
    });
    const tls = (json.results as Json[]).find((r) => r.referenceId === 'storageMinimumTls')!;
    assert.equal(tls.effect, 'audit');
    assert.deepEqual(tls.trace[2], {
      path: 'Microsoft.Storage/storageAccounts/minimumTlsVersion',
      value: 'TLS1_0',
      operator: 'less',
      expected: 'TLS1_2',
      result: true,
    });
    const missing = (json.results as Json[]).find((r) => r.referenceId === 'storageSecureTransfer')!;
    assert.match(missing.reason, /was not found/);
    assert.equal(tls.resource.name, 'contosoappdata');
  });

  test('the assignment: its values, its override to Disabled, its Deny through the set parameter', async () => {
    const result = await runCli([
      'evaluate',
      SET,
      '-r',
      STORAGE,
      '-d',
      DEFINITIONS,
      '-a',
      'examples/evaluate/assignment.json',
      '-f',
      'json',
    ]);
    const json = JSON.parse(result.stdout) as Json;
    const byRef = Object.fromEntries((json.results as Json[]).map((r) => [r.referenceId, r]));
    assert.equal(byRef.allowedLocations.outcome, 'compliant');
    assert.equal(byRef.requireCostCenterTag.outcome, 'disabled');
    assert.equal(byRef.storageMinimumTls.effect, 'deny');
  });

  test("auditIfNotExists looks among every resource given: the file's own, a wrapper's relatedResources, --related", async () => {
    const find = (json: Json) => (json.results as Json[]).find((r) => r.referenceId === 'auditDiagnosticSettings')!;
    const alone = find(
      JSON.parse(
        (await runCli(['evaluate', SET, '-r', 'examples/evaluate/key-vault.json', '-d', DEFINITIONS, '-f', 'json'])).stdout,
      ) as Json,
    );
    assert.equal(alone.outcome, 'nonCompliant', 'no diagnostic setting among the resources given');
    assert.equal(alone.relatedResourcesFound, 0);
    assert.match(alone.trace.at(-1).reason, /among the 1 resources given/);
    const withRelated = find(
      JSON.parse(
        (
          await runCli([
            'evaluate',
            SET,
            '-r',
            'examples/evaluate/key-vault.json',
            '-d',
            DEFINITIONS,
            '--related',
            'examples/evaluate/diagnostic-settings.json',
            '-f',
            'json',
          ])
        ).stdout,
      ) as Json,
    );
    assert.equal(withRelated.outcome, 'nonCompliant', 'the setting leaves metrics off, and the set asks metricsEnabled: true');
    assert.equal(withRelated.relatedResourcesFound, 1);
    const vault = JSON.parse(fs.readFileSync('examples/evaluate/key-vault.json', 'utf8')) as Json[];
    const setting = (JSON.parse(fs.readFileSync('examples/evaluate/diagnostic-settings.json', 'utf8')) as Json[])[0];
    const enabled = {
      ...setting,
      properties: { logs: [{ categoryGroup: 'allLogs', enabled: true }], metrics: [{ category: 'AllMetrics', enabled: true }] },
    };
    const together = write('vault-and-setting.json', [...vault, enabled]);
    const inFile = find(JSON.parse((await runCli(['evaluate', SET, '-r', together, '-d', DEFINITIONS, '-f', 'json'])).stdout) as Json);
    assert.equal(inFile.outcome, 'compliant', 'a setting deployed with the vault');
    const all = JSON.parse((await runCli(['evaluate', SET, '-r', together, '-d', DEFINITIONS, '-f', 'json'])).stdout) as Json;
    const onSetting = (all.results as Json[]).filter(
      (r) => r.resource.type === 'Microsoft.Insights/diagnosticSettings' && r.definitionId.endsWith('allowed-locations'),
    );
    assert.equal(onSetting[0].outcome, 'notApplicable', 'an extension resource without location is not indexed');
    const wrapper = write('wrapper.json', { resources: vault, relatedResources: [enabled] });
    const wrapped = JSON.parse((await runCli(['evaluate', SET, '-r', wrapper, '-d', DEFINITIONS, '-f', 'json'])).stdout) as Json;
    assert.equal(find(wrapped).outcome, 'compliant');
    assert.equal(
      new Set((wrapped.results as Json[]).map((r) => r.resource.name)).size,
      1,
      'related resources are not evaluated themselves',
    );
  });

  test('an ARM template (nested child resources) and a what-if result are read as their resources', async () => {
    const definition = {
      name: 'no-public-blob',
      properties: {
        mode: 'All',
        policyRule: {
          if: {
            allOf: [
              { field: 'type', equals: 'Microsoft.Storage/storageAccounts/blobServices/containers' },
              { field: 'Microsoft.Storage/storageAccounts/blobServices/containers/publicAccess', notEquals: 'None' },
            ],
          },
          then: { effect: 'deny' },
        },
      },
    };
    const defFile = write('no-public-blob.json', definition);
    const template = write('template.json', {
      $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
      contentVersion: '1.0.0.0',
      resources: [
        {
          type: 'Microsoft.Storage/storageAccounts',
          name: 'acct',
          location: 'westeurope',
          properties: {},
          resources: [{ type: 'blobServices/containers', name: 'default/public', properties: { publicAccess: 'Blob' } }],
        },
        {
          type: 'Microsoft.Storage/storageAccounts/blobServices/containers',
          name: 'acct/default/private',
          properties: { publicAccess: 'None' },
        },
      ],
    });
    const result = await runCli(['evaluate', defFile, '-r', template, '-f', 'json']);
    assert.equal(result.code, 1, result.stderr);
    const json = JSON.parse(result.stdout) as Json;
    assert.deepEqual(
      (json.results as Json[]).map((r) => [r.resource.name, r.outcome]),
      [
        ['acct', 'notApplicable'],
        ['acct/default/public', 'nonCompliant'],
        ['acct/default/private', 'compliant'],
      ],
    );
    const whatIf = write('whatif.json', {
      status: 'Succeeded',
      properties: {
        predictedResources: [
          {
            type: 'Microsoft.Storage/storageAccounts/blobServices/containers',
            name: 'public',
            id: '/subscriptions/s/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/acct/blobServices/default/containers/public',
            properties: { publicAccess: 'Container' },
          },
        ],
      },
    });
    const fromWhatIf = await runCli(['evaluate', defFile, '-r', whatIf, '-f', 'json']);
    assert.deepEqual(
      (JSON.parse(fromWhatIf.stdout) as Json).results.map((r: Json) => r.outcome),
      ['nonCompliant'],
    );
    assert.equal(fromWhatIf.code, 1);
  });

  test('text output: the trace, and a name from the file made safe for the terminal', async () => {
    const resource = write('evil.json', {
      type: 'Microsoft.Storage/storageAccounts',
      name: 'x\u001b[31mred',
      location: 'eastus',
      properties: { minimumTlsVersion: 'TLS1_2' },
    });
    const result = await runCli(['evaluate', 'examples/definitions/storage-minimum-tls.json', '-r', resource]);
    assert.equal(result.code, 0, 'compliant: nothing nonCompliant');
    assert.doesNotMatch(result.stdout, /\u001b/);
    assert.match(result.stdout, /x\\u001b\[31mred/);
    assert.match(result.stdout, /compliant +\/providers\/.*storage-minimum-tls/);
    assert.match(result.stdout, /minimumTlsVersion is "TLS1_2"; less "TLS1_2" -> false/);
    // The deciding step in words (service/evaluate/explain.ts).
    assert.match(
      result.stdout,
      /Compliant because `Microsoft.Storage\/storageAccounts\/minimumTlsVersion` is 'TLS1_2', and the rule looks for less than 'TLS1_2'/,
    );
  });

  test("a built-in set with the repository's index of definitions: every member unknown, saying the index has no rules", async () => {
    const result = await runCli([
      'evaluate',
      'test/fixtures/corpus/builtin-policy-sets/General/AllowUsageCosts.json',
      '-r',
      STORAGE,
      '-d',
      'test/fixtures/corpus/builtin-policy-definitions-index.json',
      '-f',
      'json',
    ]);
    assert.equal(result.code, 0, 'nothing nonCompliant');
    const json = JSON.parse(result.stdout) as Json;
    assert.ok(json.results.length > 0);
    for (const r of json.results as Json[]) {
      assert.equal(r.outcome, 'unknown');
      assert.match(r.reason, /known from an index only/);
    }
  });

  test('a definition file without name or ID in a --definitions folder goes by its file name', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'defs-'));
    const properties = (JSON.parse(fs.readFileSync('examples/definitions/require-tag.json', 'utf8')) as Json).properties;
    fs.writeFileSync(path.join(folder, 'require-tag.json'), JSON.stringify({ properties }));
    const json = JSON.parse((await runCli(['evaluate', SET, '-r', STORAGE, '-d', folder, '-f', 'json'])).stdout) as Json;
    assert.equal(outcomes(json).requireOwnerTag, 'compliant');
    assert.equal(outcomes(json).requireCostCenterTag, 'nonCompliant');
  });

  test('usage and input problems exit 2 with one clean line', async () => {
    for (const args of [
      ['evaluate', SET],
      ['evaluate', '-r', STORAGE],
      ['evaluate', SET, '-r', STORAGE, '-f', 'xml'],
      ['evaluate', SET, '-r', path.join(dir, 'missing.json')],
      ['evaluate', STORAGE, '-r', STORAGE],
      ['evaluate', SET, '-r', STORAGE, '--now', 'yesterday'],
    ]) {
      const result = await runCli(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stdout}`);
      assert.ok(isCleanMessage(result.stderr), result.stderr);
    }
  });
});

describe('policyset test', { concurrency: 4 }, () => {
  test('the example fixture passes (exit 0)', async () => {
    const result = await runCli(['test', 'examples/evaluate']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /4 passed, 0 failed/);
  });

  const wrong = () =>
    write('wrong.policytest.json', {
      target: path.resolve('examples/clean/contoso-baseline.json'),
      definitions: [path.resolve(DEFINITIONS)],
      cases: [
        { name: 'right', resource: path.resolve(STORAGE), expect: { requireOwnerTag: 'compliant' } },
        { name: 'wrong', resource: path.resolve(STORAGE), expect: { storageMinimumTls: 'compliant', nosuchref: 'compliant' } },
      ],
    });

  test('a wrong expectation fails (exit 1) and says expected, actual and why, in each format', async () => {
    const file = wrong();
    const text = await runCli(['test', file]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /pass {2}right/);
    assert.match(text.stdout, /FAIL {2}wrong {2}\(line \d+\)/);
    assert.match(text.stdout, /storageMinimumTls: expected compliant, got nonCompliant/);
    assert.match(
      text.stdout,
      /Audit because `Microsoft.Storage\/storageAccounts\/minimumTlsVersion` is 'TLS1_0', expected at least 'TLS1_2'/,
    );
    assert.match(text.stdout, /nosuchref: expected compliant, got no such member/);
    assert.match(text.stdout, /1 passed, 1 failed/);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const caseLine = lines.findIndex((l) => l.includes('"name": "wrong"')); // the line after the case's brace
    const json = JSON.parse((await runCli(['test', file, '-f', 'json'])).stdout) as Json;
    assert.deepEqual(json.summary, { passed: 1, failed: 1 });
    assert.equal(json.fixtures[0].cases[1].line, caseLine, 'the line of the brace that opens the case');
    const sarif = JSON.parse((await runCli(['test', file, '-f', 'sarif'])).stdout) as Json;
    assert.equal(sarif.runs[0].results.length, 2);
    assert.equal(sarif.runs[0].results[0].locations[0].physicalLocation.region.startLine, caseLine);
    const junit = await runCli(['test', file, '-f', 'junit']);
    assert.equal(junit.code, 1);
    assert.match(junit.stdout, /<testsuites name="policyset test" tests="2" failures="1">/);
    assert.match(junit.stdout, /<failure message="storageMinimumTls: expected compliant, got nonCompliant">/);
  });

  test('an inline target and definitions; an expectation of outcome and effect', async () => {
    const definition = {
      name: 'tls',
      properties: {
        mode: 'All',
        parameters: { effect: { type: 'String', defaultValue: 'Audit' } },
        policyRule: {
          if: { field: 'Microsoft.Storage/storageAccounts/minimumTlsVersion', notEquals: 'TLS1_2' },
          then: { effect: "[parameters('effect')]" },
        },
      },
    };
    const fixture = (effect: string) =>
      write(`inline-${effect}.policytest.json`, {
        target: definition,
        assignment: { properties: { parameters: { effect: { value: 'Deny' } } } },
        cases: [
          {
            name: 'tls 1.0',
            resource: { type: 'Microsoft.Storage/storageAccounts', name: 'a', location: 'x', properties: { minimumTlsVersion: 'TLS1_0' } },
            expect: { tls: { outcome: 'nonCompliant', effect } },
          },
        ],
      });
    assert.equal((await runCli(['test', fixture('deny')])).code, 0);
    const wrongEffect = await runCli(['test', fixture('audit')]);
    assert.equal(wrongEffect.code, 1);
    assert.match(wrongEffect.stdout, /tls: expected nonCompliant \(audit\), got nonCompliant \(deny\)/);
  });

  test('no fixture, or a fixture that is not one, exits 2', async () => {
    const empty = fs.mkdtempSync(path.join(dir, 'empty-'));
    assert.equal((await runCli(['test', empty])).code, 2);
    const bad = write('bad.policytest.json', { cases: [] });
    const result = await runCli(['test', bad]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /needs "target"/);
    const badOutcome = write('outcome.policytest.json', {
      target: path.resolve(SET),
      cases: [{ resource: path.resolve(STORAGE), expect: { x: 'passes' } }],
    });
    assert.match((await runCli(['test', badOutcome])).stderr, /'passes'.*which is no outcome/);
  });
});
