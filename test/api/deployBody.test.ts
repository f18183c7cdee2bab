// policyset deploy sends what the repository's layout means (issue 31): a fragment's "[[" escapes as its
// template sends them, policyDefinitionName resolved to the policyDefinitionId the spec requires (A2), the
// version from where the repository keeps it, no built-in-only field; and the local service refuses what the
// spec forbids, as the real one does.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, type RunResult } from '../support/run';
import { REPO_ROOT } from '../support/corpus';
import { startLocalService, type LocalService } from '../fake-service/localService';

const TOKEN = 'TOKEN-deploy-body-7c41e2';
const SUB = '1b2c3d4e-5a1d-4c2e-9f8a-0123456789ab';
const BUILT_IN = '3aa03346-d8c5-4994-a5bc-7652c2a2aef1';
const BUILT_IN_ID = `/providers/Microsoft.Authorization/policyDefinitions/${BUILT_IN}`;
const INDEX = path.join(REPO_ROOT, 'test/fixtures/corpus/builtin-policy-definitions-index.json');
const EPAC_SCHEMA =
  'https://raw.githubusercontent.com/Azure/enterprise-azure-policy-as-code/main/Schemas/policy-set-definition-schema.json';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let dir: string;
let service: LocalService;
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(content, null, 2));
  return file;
};
const deploy = (args: string[]): Promise<RunResult> =>
  runCli(['deploy', ...args, '--yes', '--base-url', service.url], {
    cwd: dir,
    env: { ...process.env, POLICYSET_ACCESS_TOKEN: TOKEN },
    timeoutMs: 60_000,
  });
const puts = () => service.requests.filter((r) => r.method === 'PUT');
const sentBody = (): Json => {
  assert.equal(puts().length, 1, `one PUT: ${service.requests.map((r) => `${r.method} ${r.path} ${r.outcome}`).join(', ')}`);
  return JSON.parse(puts()[0].body) as Json;
};

/** A set resource written for a template (a fragment): its own expressions escaped with "[[". */
function fragment(extra: Json = {}): Json {
  return {
    type: 'Microsoft.Authorization/policySetDefinitions',
    apiVersion: '2021-06-01',
    name: 'fragment-set',
    properties: {
      displayName: 'A fragment',
      version: '1.0.0',
      parameters: { effect: { type: 'String', allowedValues: ['Audit', 'Deny', 'Disabled'], defaultValue: 'Audit' } },
      policyDefinitions: [
        {
          policyDefinitionReferenceId: 'apim',
          policyDefinitionId: BUILT_IN_ID,
          parameters: { effect: { value: "[[parameters('effect')]" } },
          ...extra,
        },
      ],
    },
  };
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-deploy-body-'));
  service = await startLocalService();
});
after(async () => {
  await service.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('deploy: what is sent is what the layout means', () => {
  test('a fragment: "[[parameters(\'effect\')]" is sent as "[parameters(\'effect\')]", and said', async () => {
    service.requests.length = 0;
    const result = await deploy([write('fragment.json', fragment()), '--subscription', SUB]);
    assert.equal(result.code, 0, result.stderr);
    const body = sentBody();
    assert.equal(body.properties.policyDefinitions[0].parameters.effect.value, "[parameters('effect')]");
    assert.doesNotMatch(puts()[0].body, /\[\[/);
    assert.match(result.stderr, /read as its template reads it: 1 escaped string sent as the template sends it/);
  });

  test('a set file in the service shape ("[parameters(\'effect\')]", no template) is sent as it is', async () => {
    service.requests.length = 0;
    const plain = fragment();
    delete plain.apiVersion;
    delete plain.type;
    plain.properties.policyDefinitions[0].parameters.effect.value = "[parameters('effect')]";
    const result = await deploy([write('plain.json', plain), '--subscription', SUB]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(sentBody().properties.policyDefinitions[0].parameters.effect.value, "[parameters('effect')]");
    assert.doesNotMatch(result.stderr, /read as its template/);
  });

  test('a fragment whose strings the template evaluates is refused with a sentence (exit 2), nothing sent', async () => {
    service.requests.length = 0;
    const result = await deploy([write('evaluated.json', fragment({ groupNames: ["[variables('group')]"] })), '--subscription', SUB]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /template expression that only the template evaluates at deployment \(the first: "\[variables\('group'\)\]"\)/,
    );
    assert.equal(service.requests.length, 0);
  });

  test('policyDefinitionName: a custom name at the deploy scope, a built-in the index knows by its ID', async () => {
    service.requests.length = 0;
    const epac = {
      $schema: EPAC_SCHEMA,
      name: 'epac-set',
      properties: {
        displayName: 'EPAC set',
        metadata: { version: '1.1.0' },
        policyDefinitions: [
          { policyDefinitionReferenceId: 'custom', policyDefinitionName: 'deny-rdp-from-internet' },
          { policyDefinitionReferenceId: 'builtin', policyDefinitionName: BUILT_IN, parameters: { effect: { value: 'Audit' } } },
        ],
      },
    };
    const result = await deploy([write('epac.json', epac), '--management-group', 'contoso', '-d', INDEX]);
    assert.equal(result.code, 0, result.stderr);
    const references = sentBody().properties.policyDefinitions;
    assert.deepEqual(
      references.map((r: Json) => r.policyDefinitionId),
      [
        '/providers/Provider.Management/managementGroups/contoso/providers/Provider.Authorization/policyDefinitions/deny-rdp-from-internet',
        BUILT_IN_ID,
      ],
    );
    assert.ok(references.every((r: Json) => !('policyDefinitionName' in r)));
    // The version came from properties.metadata.version: no --version needed.
    assert.match(puts()[0].path, /\/epac-set\/versions\/1\.1\.0$/);
    assert.match(
      result.stderr,
      /policyDefinitionName resolved to a policyDefinitionId: 1 as built-in the definitions loaded know; 1 as custom definition at the deploy scope/,
    );
  });

  test('policyDefinitionName of a GUID no loaded definition knows: refused with a sentence, nothing sent', async () => {
    service.requests.length = 0;
    const epac = {
      $schema: EPAC_SCHEMA,
      name: 'epac-guid',
      properties: {
        metadata: { version: '1.0.0' },
        policyDefinitions: [{ policyDefinitionReferenceId: 'b', policyDefinitionName: BUILT_IN }],
      },
    };
    const result = await deploy([write('epac-guid.json', epac), '--subscription', SUB]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /names its definition '3aa03346-[^']+' by policyDefinitionName only, as built-ins are named, and the definitions loaded do not know it: give -d/,
    );
    assert.equal(service.requests.length, 0);
  });

  test('the version in properties.metadata.version: --version that disagrees is refused (exit 2), one that agrees is taken', async () => {
    service.requests.length = 0;
    const set = fragment();
    delete set.apiVersion;
    delete set.type;
    delete set.properties.version;
    set.properties.metadata = { version: '1.1.0' };
    set.properties.policyDefinitions[0].parameters.effect.value = 'Audit';
    const file = write('metadata-version.json', set);
    const refused = await deploy([file, '--subscription', SUB, '--version', '2.0.0']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /The version to deploy is '2\.0\.0' \(from --version\) but properties\.metadata\.version says '1\.1\.0'; make them agree/,
    );
    assert.equal(service.requests.length, 0);
    const agreed = await deploy([file, '--subscription', SUB, '--version', '1.1.0']);
    assert.equal(agreed.code, 0, agreed.stderr);
    assert.match(puts()[0].path, /\/versions\/1\.1\.0$/);
  });

  test("a fetched built-in: policyType BuiltIn is not sent (a deployed version is the team's own), and said", async () => {
    service.requests.length = 0;
    const fetched = fragment();
    delete fetched.apiVersion;
    fetched.id = '/providers/Microsoft.Authorization/policySetDefinitions/fragment-set';
    fetched.properties.policyType = 'BuiltIn';
    fetched.properties.policyDefinitions[0].parameters.effect.value = 'Audit';
    const result = await deploy([write('fetched.json', fetched), '--subscription', SUB]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!('policyType' in sentBody().properties));
    assert.match(result.stderr, /properties\.policyType \(BuiltIn: the service's own sets only\)/);
  });
});

describe('the local service enforces A1/A2 as the real one does', () => {
  const put = (body: unknown) =>
    fetch(
      `${service.url}/subscriptions/${SUB}/providers/Provider.Authorization/policySetDefinitions/direct/versions/1.0.0?api-version=2025-11-01`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
    );

  for (const [what, properties, target] of [
    [
      'a reference without policyDefinitionId',
      { policyDefinitions: [{ policyDefinitionName: 'x' }] },
      'properties.policyDefinitions[0].policyDefinitionId',
    ],
    [
      'a reference with an empty policyDefinitionId',
      { policyDefinitions: [{ policyDefinitionId: BUILT_IN_ID }, { policyDefinitionId: '' }] },
      'properties.policyDefinitions[1].policyDefinitionId',
    ],
    [
      'a group without a name',
      { policyDefinitionGroups: [{ displayName: 'g' }], policyDefinitions: [{ policyDefinitionId: BUILT_IN_ID }] },
      'properties.policyDefinitionGroups[0].name',
    ],
    ['policyType BuiltIn', { policyType: 'BuiltIn', policyDefinitions: [{ policyDefinitionId: BUILT_IN_ID }] }, 'properties.policyType'],
  ] as const) {
    test(`${what}: 400 with the service's error shape`, async () => {
      const response = await put({ properties });
      assert.equal(response.status, 400);
      const body = (await response.json()) as Json;
      assert.equal(typeof body.error.code, 'string');
      assert.equal(typeof body.error.message, 'string');
      assert.equal(body.error.target, target);
    });
  }

  test('a complete body is still 201', async () => {
    const response = await put({
      properties: {
        policyType: 'Custom',
        policyDefinitionGroups: [{ name: 'g' }],
        policyDefinitions: [{ policyDefinitionId: BUILT_IN_ID, groupNames: ['g'] }],
      },
    });
    assert.equal(response.status, 201);
  });
});
