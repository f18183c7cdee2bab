// Nothing unchecked in silence (issue 31): a lint that could not check references against their definitions
// says how many and why in every format, --strict fails on them, and `policyset definitions index` builds
// the index that checks built-ins out of the box.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../support/run';
import { cleanSet } from '../support/sets';
import { uncheckedReferencesOf, parsePolicyDocument, DefinitionCatalog, validateText } from '#service';

const BUILT_IN = '06a78e20-9358-41c9-923c-fb736d382a4d';
const CUSTOM_ID =
  '/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/Deny-Public-IP';

let dir: string;
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
  return file;
};

/** A built-in definition file as the vendor's repository keeps them (id, name, policyType BuiltIn). */
const builtInDefinition = (name: string, allowed: string[]) => ({
  id: `/providers/Microsoft.Authorization/policyDefinitions/${name}`,
  name,
  type: 'Microsoft.Authorization/policyDefinitions',
  properties: {
    displayName: `Definition ${name}`,
    policyType: 'BuiltIn',
    mode: 'Indexed',
    version: '1.0.0',
    metadata: { version: '1.0.0', category: 'Network' },
    parameters: { effect: { type: 'String', allowedValues: allowed, defaultValue: allowed[0], metadata: { displayName: 'Effect' } } },
    policyRule: { if: { field: 'type', equals: 'Microsoft.Network/publicIPAddresses' }, then: { effect: "[parameters('effect')]" } },
  },
});

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policyset-unchecked-'));
  const set = cleanSet('with-custom', 'With a custom reference') as { properties: { policyDefinitions: unknown[] } };
  set.properties.policyDefinitions.push({ policyDefinitionReferenceId: 'custom', policyDefinitionId: CUSTOM_ID });
  write('sets/with-custom.json', set);
  write('sets/built-in-only.json', cleanSet('built-in-only', 'Built-in only'));
  // A clone of the vendor's built-in definitions, in small: one per cloud folder, and a file that is no definition.
  write('builtins/policyDefinitions/Network/def.json', builtInDefinition(BUILT_IN, ['Audit', 'Disabled']));
  write('builtins/policyDefinitions/Azure Government/Network/def.json', builtInDefinition(BUILT_IN, ['Audit', 'Deny', 'Disabled']));
  write('builtins/policyDefinitions/README.json', { note: 'no definition' });
  write('builtins/policyDefinitions/broken.json', '{ "properties": ');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('references not checked against their definitions', () => {
  test('counted by kind and reason: none loaded, or not found among those loaded', () => {
    const document = parsePolicyDocument(fs.readFileSync(path.join(dir, 'sets/with-custom.json'), 'utf8'));
    assert.deepEqual(uncheckedReferencesOf(document.sets, undefined), {
      builtIn: { noDefinitions: 1, notFound: 0 },
      custom: { noDefinitions: 1, notFound: 0 },
    });
    const catalog = new DefinitionCatalog();
    catalog.addIndex([
      { id: `/providers/Microsoft.Authorization/policyDefinitions/${BUILT_IN}`, name: BUILT_IN, parameters: {} },
      { id: '/providers/Microsoft.Authorization/policyDefinitions/other', name: 'other', parameters: {} },
    ]);
    assert.deepEqual(uncheckedReferencesOf(document.sets, catalog), {
      builtIn: { noDefinitions: 0, notFound: 0 },
      custom: { noDefinitions: 1, notFound: 0 },
    });
    catalog.addDefinitionDocument({ name: 'Deny-Other', properties: { policyRule: {} } });
    assert.deepEqual(uncheckedReferencesOf(document.sets, catalog), {
      builtIn: { noDefinitions: 0, notFound: 0 },
      custom: { noDefinitions: 0, notFound: 1 },
    });
    const onlyOther = new DefinitionCatalog();
    onlyOther.addIndex([{ id: '/providers/Microsoft.Authorization/policyDefinitions/other', name: 'other', parameters: {} }]);
    assert.equal(uncheckedReferencesOf(document.sets, onlyOther).builtIn.notFound, 1);
    // The sets a template embeds as strings are counted too.
    const template = {
      $schema: 'https://schema.management.azure.com/schemas/2019-08-01/managementGroupDeploymentTemplate.json#',
      contentVersion: '1.0.0.0',
      variables: {
        '$fxv#0': JSON.stringify({ ...cleanSet('e', 'E'), type: 'Microsoft.Authorization/policySetDefinitions', apiVersion: '2021-06-01' }),
      },
      resources: [
        {
          type: 'Microsoft.Authorization/policySetDefinitions',
          apiVersion: '2021-06-01',
          name: "[json(variables('$fxv#0')).name]",
          properties: "[json(variables('$fxv#0')).properties]",
        },
      ],
    };
    assert.equal(validateText(JSON.stringify(template)).unchecked.builtIn.noDefinitions, 1);
  });

  test('text: a line under the summary; JSON: uncheckedReferences; SARIF: a notification; a clean run stays exit 0', async () => {
    const text = await runCli(['lint', 'sets'], { cwd: dir });
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /✔ 0 errors, 0 warnings in 2 policy documents\n⚠ 3 references not checked against their definitions: 2 to built-in definitions \(2 with none loaded: --definitions <index>, see policyset definitions index\); 1 to custom definitions \(1 with none loaded: lint their files alongside, or --definitions <folder>\)\n$/,
    );
    const json = JSON.parse((await runCli(['lint', 'sets', '-f', 'json'], { cwd: dir })).stdout);
    assert.deepEqual(json.uncheckedReferences, {
      total: 3,
      builtIn: { noDefinitions: 2, notFound: 0 },
      custom: { noDefinitions: 1, notFound: 0 },
    });
    const sarif = JSON.parse((await runCli(['lint', 'sets', '-f', 'sarif'], { cwd: dir })).stdout);
    const notification = sarif.runs[0].invocations[0].toolExecutionNotifications.find(
      (n: { descriptor?: { id: string } }) => n.descriptor?.id === 'unchecked-references',
    );
    assert.equal(notification.level, 'warning');
    assert.match(notification.message.text, /^3 references not checked/);
    assert.equal(notification.properties.uncheckedReferences.total, 3);
  });

  test('--strict fails on them (exit 2, as for a named file not checked); with every definition known it passes', async () => {
    const strict = await runCli(['lint', 'sets', '--strict'], { cwd: dir });
    assert.equal(strict.code, 2);
    assert.match(strict.stderr, /3 references not checked .* \(--strict\)/);
    fs.mkdirSync(path.join(dir, 'custom'), { recursive: true });
    write('custom/Deny-Public-IP.json', {
      name: 'Deny-Public-IP',
      properties: { policyRule: { if: { field: 'type', equals: 'x' }, then: { effect: 'deny' } } },
    });
    const index = await runCli(['definitions', 'index', 'builtins/policyDefinitions', '-o', 'index.json'], { cwd: dir });
    assert.equal(index.code, 0, index.stderr);
    const passed = await runCli(['lint', 'sets', '--strict', '-d', 'index.json', '-d', 'custom'], { cwd: dir });
    assert.equal(passed.code, 0, passed.stdout + passed.stderr);
    assert.doesNotMatch(passed.stdout, /not checked/);
  });
});

describe('policyset definitions index', () => {
  test("the index of a folder of built-in definitions: the corpus index's shape, each cloud's variant, what was left out said", async () => {
    const result = await runCli(['definitions', 'index', 'builtins/policyDefinitions', '-o', 'built-in-index.json'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /2 definitions indexed \(1 AzureCloud, 1 AzureUSGovernment\) in built-in-index\.json/);
    assert.match(result.stderr, /1 file not read \(not JSON\): builtins\/policyDefinitions\/broken\.json/);
    assert.match(result.stderr, /1 file left out \(JSON, not a policy definition\): builtins\/policyDefinitions\/README\.json/);
    const index = JSON.parse(fs.readFileSync(path.join(dir, 'built-in-index.json'), 'utf8'));
    assert.deepEqual(index[0], {
      name: BUILT_IN,
      id: `/providers/Microsoft.Authorization/policyDefinitions/${BUILT_IN}`,
      version: '1.0.0',
      versions: ['1.0.0'],
      parameters: { effect: { type: 'String', allowedValues: ['Audit', 'Disabled'], defaultValue: 'Audit' } },
      displayName: `Definition ${BUILT_IN}`,
      cloud: 'AzureCloud',
      category: 'Network',
      sourcePath: 'builtins/policyDefinitions/Network/def.json',
    });
    assert.deepEqual(
      [index[1].cloud, index[1].sourcePath, index[1].parameters.effect.allowedValues],
      ['AzureUSGovernment', 'builtins/policyDefinitions/Azure Government/Network/def.json', ['Audit', 'Deny', 'Disabled']],
    );
    // The index is what --definitions reads: the set's values are checked against it (Deny is not allowed in AzureCloud).
    const set = cleanSet('deny', 'Deny') as {
      properties: {
        parameters: { effect: { allowedValues: string[]; defaultValue: string } };
        policyDefinitions: Array<{ parameters: unknown }>;
      };
    };
    set.properties.policyDefinitions[0].parameters = { effect: { value: 'Deny' } };
    write('deny/set.json', set);
    const lint = await runCli(['lint', 'deny', '-d', 'built-in-index.json', '-f', 'json'], { cwd: dir });
    assert.ok(
      JSON.parse(lint.stdout).files[0].diagnostics.some((d: { code: string }) => d.code === 'PS8004'),
      lint.stdout,
    );
  });

  test('usage and input problems: exit 2 with a sentence', async () => {
    const none = await runCli(['definitions', 'index'], { cwd: dir });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /needs a folder/);
    const empty = await runCli(['definitions', 'index', 'sets'], { cwd: dir });
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /no policy definition under sets \(2 JSON files read\)/);
    const over = await runCli(['definitions', 'index', 'builtins/policyDefinitions', '-o', 'builtins/policyDefinitions/README.json'], {
      cwd: dir,
    });
    assert.equal(over.code, 2);
    assert.match(over.stderr, /would replace an input/);
  });
});
