// The evaluator's conditions against the service's documented examples: each describe names the page its
// vectors come from. Expectations are worked out by hand from the page, never from the evaluator.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, type JsonObject, type MemberResult, type EvaluationContext } from '#service';
import { applyOperator } from '#server/service/evaluate/compare';

/** One definition with `if` and an effect, evaluated against one resource. */
function run(
  condition: object,
  resource: object,
  options: { mode?: string; effect?: string; context?: EvaluationContext; parameters?: object } = {},
): MemberResult {
  const definition = {
    name: 'd',
    properties: {
      mode: options.mode ?? 'All',
      parameters: options.parameters ?? {},
      policyRule: { if: condition, then: { effect: options.effect ?? 'audit' } },
    },
  } as JsonObject;
  const [result] = evaluate(
    { target: definition, findDefinition: () => undefined, context: options.context ?? {} },
    resource as JsonObject,
  );
  return result;
}

const storage = (properties: object, extra: object = {}): JsonObject =>
  ({
    type: 'Microsoft.Storage/storageAccounts',
    name: 'contosodata',
    location: 'westeurope',
    tags: {},
    properties,
    ...extra,
  }) as JsonObject;

// https://learn.microsoft.com/en-us/azure/governance/policy/concepts/definition-structure-policy-rule#conditions
describe('condition operators (definition structure: policy rule, "Conditions")', () => {
  test('equals and notEquals compare strings case-insensitively; a missing field equals nothing', () => {
    assert.equal(applyOperator('equals', 'Microsoft.Storage/storageAccounts', 'microsoft.storage/STORAGEACCOUNTS'), true);
    assert.equal(applyOperator('notequals', 'westeurope', 'WestEurope'), false);
    assert.equal(applyOperator('equals', undefined, 'x'), false);
    assert.equal(applyOperator('notequals', undefined, 'x'), true);
  });
  test('a boolean property equals the string "false" the built-ins write', () => {
    assert.equal(applyOperator('equals', false, 'false'), true);
    assert.equal(applyOperator('equals', true, 'false'), false);
  });
  test('like takes * as the wildcard, case-insensitively', () => {
    assert.equal(applyOperator('like', 'Contoso-Web-01', 'contoso-*'), true);
    assert.equal(applyOperator('like', 'fabrikam-web', 'contoso-*'), false);
    assert.equal(applyOperator('notlike', 'fabrikam-web', 'contoso-*'), true);
    assert.equal(applyOperator('like', 'a.b', 'a.b'), true, 'a dot is a dot for like');
    assert.equal(applyOperator('like', 'axb', 'a.b'), false);
  });
  test('match: # a digit, ? a letter, . any character, case-sensitive; matchInsensitively is not', () => {
    assert.equal(applyOperator('match', 'Contoso-123', 'Contoso-###'), true);
    assert.equal(applyOperator('match', 'contoso-123', 'Contoso-###'), false);
    assert.equal(applyOperator('matchinsensitively', 'contoso-123', 'Contoso-###'), true);
    assert.equal(applyOperator('match', 'ab-1', '??-#'), true);
    assert.equal(applyOperator('match', 'a1-1', '??-#'), false);
    assert.equal(applyOperator('match', 'x!z', 'x.z'), true);
    assert.equal(applyOperator('notmatch', 'Contoso-12', 'Contoso-###'), true);
    assert.equal(applyOperator('notmatchinsensitively', 'CONTOSO-123', 'contoso-###'), false);
  });
  test('contains and notContains: a substring, case-insensitively; a member of an array', () => {
    assert.equal(applyOperator('contains', 'Standard_LRS', 'lrs'), true);
    assert.equal(applyOperator('notcontains', 'Standard_GRS', 'lrs'), true);
    assert.equal(applyOperator('contains', ['a', 'B'], 'b'), true);
  });
  test('in and notIn take an array; the comparison ignores case', () => {
    assert.equal(applyOperator('in', 'WestEurope', ['westeurope', 'northeurope']), true);
    assert.equal(applyOperator('notin', 'eastus', ['westeurope', 'northeurope']), true);
    assert.equal(applyOperator('in', undefined, ['westeurope']), false);
    assert.throws(() => applyOperator('in', 'x', 'x'), /expects an array/);
  });
  test("containsKey and notContainsKey look at an object's keys, case-insensitively", () => {
    assert.equal(applyOperator('containskey', { Environment: 'prod' }, 'environment'), true);
    assert.equal(applyOperator('notcontainskey', { Environment: 'prod' }, 'owner'), true);
    assert.equal(applyOperator('containskey', undefined, 'owner'), false);
  });
  test("less, lessOrEquals, greater, greaterOrEquals: numbers, dates and strings; another type is the service's error (unknown)", () => {
    assert.equal(applyOperator('less', 5, 10), true);
    assert.equal(applyOperator('greaterorequals', 10, 10), true);
    assert.equal(applyOperator('lessorequals', 11, 10), false);
    assert.equal(applyOperator('greater', '2026-02-01T00:00:00Z', '2026-01-31'), true);
    assert.equal(applyOperator('less', 'TLS1_0', 'tls1_2'), true);
    assert.throws(() => applyOperator('less', undefined, 'TLS1_2'), /fails such a comparison/);
    assert.throws(() => applyOperator('greater', 'abc', 3), /fails such a comparison/);
  });
  test('exists: "true" and "false", as strings or booleans', () => {
    assert.equal(applyOperator('exists', 'x', 'true'), true);
    assert.equal(applyOperator('exists', undefined, 'false'), true);
    assert.equal(applyOperator('exists', null, true), false);
    assert.equal(applyOperator('exists', 0, false), false);
  });
});

// https://learn.microsoft.com/en-us/azure/governance/policy/concepts/definition-structure-policy-rule#logical-operators
describe('logical operators and fields (policy rule: "Logical operators", "Fields")', () => {
  test("the page's example: not containsKey 'application' under allOf with a type condition", () => {
    const rule = {
      allOf: [{ not: { field: 'tags', containsKey: 'application' } }, { field: 'type', equals: 'Microsoft.Storage/storageAccounts' }],
    };
    assert.equal(run(rule, storage({}, { tags: { owner: 'x' } })).outcome, 'nonCompliant');
    assert.equal(run(rule, storage({}, { tags: { Application: 'x' } })).outcome, 'compliant');
  });
  test("tags['name'], tags.name and tags[name] read a tag; fullName of a child is parent/child", () => {
    const resource = storage({}, { tags: { 'cost center': 'A1', env: 'prod' } });
    assert.equal(run({ field: "tags['cost center']", equals: 'a1' }, resource).outcome, 'nonCompliant');
    assert.equal(run({ field: 'tags.env', equals: 'prod' }, resource).outcome, 'nonCompliant');
    assert.equal(run({ field: 'tags[env]', equals: 'test' }, resource).outcome, 'compliant');
    const child = { type: 'Microsoft.Sql/servers/databases', name: 'srv/db1', location: 'x' };
    assert.equal(run({ field: 'fullName', equals: 'srv/db1' }, child).outcome, 'nonCompliant');
    assert.equal(run({ field: 'name', equals: 'db1' }, child).outcome, 'nonCompliant');
  });
  test('three values: a false part decides an allOf even when another part is unknown', () => {
    const rule = {
      allOf: [
        { field: 'type', equals: 'Microsoft.Compute/virtualMachines' },
        { field: 'Microsoft.HybridCompute/imageOffer', like: 'windows*' },
      ],
    };
    assert.equal(run(rule, storage({})).outcome, 'notApplicable');
    const vm = { type: 'Microsoft.Compute/virtualMachines', name: 'vm', location: 'x', properties: {} };
    const result = run(rule, vm);
    assert.equal(result.outcome, 'unknown');
    assert.match(result.reason ?? '', /alias 'Microsoft.HybridCompute\/imageOffer' is not of the resource's type/);
  });
  test("a field given by an expression: [concat('tags[', parameters('tagName'), ']')]", () => {
    const parameters = { tagName: { type: 'String', defaultValue: 'costCenter' } };
    const rule = { field: "[concat('tags[', parameters('tagName'), ']')]", exists: 'false' };
    assert.equal(run(rule, storage({}), { parameters }).outcome, 'nonCompliant');
    assert.equal(run(rule, storage({}, { tags: { costcenter: '1' } }), { parameters }).outcome, 'compliant');
  });
  test('a value condition evaluates its expression', () => {
    const rule = { value: "[toLower(field('location'))]", equals: 'westeurope' };
    assert.equal(run(rule, storage({}, { location: 'WestEurope' })).outcome, 'nonCompliant');
  });
});

// https://learn.microsoft.com/en-us/azure/governance/policy/concepts/definition-structure-alias
describe('aliases (definition structure: alias)', () => {
  test('the mechanical rule reads properties.<path>; top-level sku when the resource has it', () => {
    const rule = {
      allOf: [
        { field: 'Microsoft.Storage/storageAccounts/networkAcls.defaultAction', equals: 'Allow' },
        { field: 'Microsoft.Storage/storageAccounts/sku.name', equals: 'Standard_LRS' },
      ],
    };
    assert.equal(
      run(rule, storage({ networkAcls: { defaultAction: 'Allow' } }, { sku: { name: 'Standard_LRS' } })).outcome,
      'nonCompliant',
    );
    assert.equal(run(rule, storage({ networkAcls: { defaultAction: 'Deny' } }, { sku: { name: 'Standard_LRS' } })).outcome, 'compliant');
  });
  test('a catalogue path is read instead of the mechanical one', () => {
    const vm = {
      type: 'Microsoft.Compute/virtualMachines',
      name: 'vm',
      location: 'x',
      properties: { storageProfile: { imageReference: { publisher: 'MicrosoftWindowsServer' } } },
    };
    const aliases = new Map([['microsoft.compute/imagepublisher', 'properties.storageProfile.imageReference.publisher']]);
    assert.equal(
      run({ field: 'Microsoft.Compute/imagePublisher', equals: 'MicrosoftWindowsServer' }, vm, { context: { aliases } }).outcome,
      'nonCompliant',
    );
  });
  // The bundled catalogue (bundledAliases.json): the page's own example, Microsoft.Compute/imagePublisher, reads
  // properties.storageProfile.imageReference.publisher on a virtual machine; the scale set's alias of the same
  // name reads its virtualMachineProfile's.
  const image = (publisher: string) => ({ imageReference: { publisher } });
  const vm = (properties: object): JsonObject =>
    ({ type: 'Microsoft.Compute/virtualMachines', name: 'vm', location: 'x', properties }) as JsonObject;
  const windows = { field: 'Microsoft.Compute/imagePublisher', equals: 'MicrosoftWindowsServer' };
  test('an alias the mechanical rule cannot map is read through the bundled catalogue, by the resource type', () => {
    assert.equal(run(windows, vm({ storageProfile: image('MicrosoftWindowsServer') })).outcome, 'nonCompliant');
    assert.equal(run(windows, vm({ storageProfile: image('Canonical') })).outcome, 'compliant');
    const scaleSet = (properties: object) => ({ type: 'Microsoft.Compute/virtualMachineScaleSets', name: 's', location: 'x', properties });
    assert.equal(
      run(windows, scaleSet({ virtualMachineProfile: { storageProfile: image('MicrosoftWindowsServer') } })).outcome,
      'nonCompliant',
    );
    assert.equal(
      run(windows, scaleSet({ storageProfile: image('MicrosoftWindowsServer') })).outcome,
      'compliant',
      "a VM's path is not a scale set's",
    );
  });
  test("an alias of the resource's own type whose path is not properties.<a.b>: virtualMachines/sku.name is hardwareProfile.vmSize", () => {
    const rule = { field: 'Microsoft.Compute/virtualMachines/sku.name', in: ['Standard_D2s_v3'] };
    assert.equal(run(rule, vm({ hardwareProfile: { vmSize: 'Standard_D2s_v3' } })).outcome, 'nonCompliant');
    assert.equal(run(rule, vm({ sku: { name: 'Standard_D2s_v3' } })).outcome, 'compliant', 'properties.sku.name is not read');
  });
  test("a child's alias named after its name (sites/config/web.minTlsVersion) reads the child's own properties", () => {
    const rule = { field: 'Microsoft.Web/sites/config/web.minTlsVersion', less: '1.2' };
    const config = (properties: object) => ({ type: 'Microsoft.Web/sites/config', name: 'site/web', properties });
    assert.equal(run(rule, config({ minTlsVersion: '1.0' })).outcome, 'nonCompliant');
    assert.equal(run(rule, config({ minTlsVersion: '1.2', web: { minTlsVersion: '1.0' } })).outcome, 'compliant');
  });
  test("a bundled array alias is counted, and its members' fields read under the count", () => {
    const rule = {
      count: {
        field: 'Microsoft.Compute/VirtualMachineScaleSets/extensionProfile.extensions[*]',
        where: {
          field: 'Microsoft.Compute/VirtualMachineScaleSets/extensionProfile.extensions[*].type',
          equals: 'AzureMonitorWindowsAgent',
        },
      },
      equals: 0,
    };
    const extension = (type: string) => ({ name: type, properties: { type } });
    const scaleSet = (...types: string[]) => ({
      type: 'Microsoft.Compute/virtualMachineScaleSets',
      name: 's',
      location: 'x',
      properties: { virtualMachineProfile: { extensionProfile: { extensions: types.map(extension) } } },
    });
    assert.equal(run(rule, scaleSet('CustomScriptExtension')).outcome, 'nonCompliant');
    assert.equal(run(rule, scaleSet('CustomScriptExtension', 'AzureMonitorWindowsAgent')).outcome, 'compliant');
  });
  test('a given catalogue comes before the bundled one; an alias it does not list still reads the bundled path', () => {
    const resource = vm({ storageProfile: image('Canonical'), custom: { publisher: 'MicrosoftWindowsServer' } });
    const aliases = new Map([['microsoft.compute/imagepublisher', 'properties.custom.publisher']]);
    assert.equal(run(windows, resource, { context: { aliases } }).outcome, 'nonCompliant');
    assert.equal(run(windows, resource).outcome, 'compliant');
    const other = new Map([['microsoft.compute/imageoffer', 'properties.custom.offer']]);
    assert.equal(run(windows, resource, { context: { aliases: other } }).outcome, 'compliant');
  });
  test("a template's name that is an expression is not read as a name", () => {
    const result = run({ field: 'name', like: 'prod-*' }, storage({}, { name: "[parameters('accountName')]" }));
    assert.equal(result.outcome, 'unknown');
    assert.match(result.reason ?? '', /template expression/);
  });
  test('a resource value that is a template expression is not read as a string', () => {
    const result = run(
      { field: 'Microsoft.Storage/storageAccounts/minimumTlsVersion', equals: 'TLS1_2' },
      storage({ minimumTlsVersion: "[parameters('tls')]" }),
    );
    assert.equal(result.outcome, 'unknown');
    assert.match(result.reason ?? '', /template expression/);
  });
});

// https://learn.microsoft.com/en-us/azure/governance/policy/how-to/author-policies-for-arrays
describe('[*] and count (author policies for array properties; policy rule "Count")', () => {
  const ipRules = (rules: object[]) => storage({ networkAcls: { ipRules: rules } });
  const two = ipRules([
    { value: '127.0.0.1', action: 'Allow' },
    { value: '192.168.1.1', action: 'Allow' },
  ]);
  const field = 'Microsoft.Storage/storageAccounts/networkAcls.ipRules[*]';
  test('a [*] condition holds when every member satisfies it', () => {
    assert.equal(run({ field: `${field}.action`, equals: 'Allow' }, two).outcome, 'nonCompliant');
    assert.equal(run({ field: `${field}.value`, notEquals: '127.0.0.1' }, two).outcome, 'compliant');
    assert.equal(run({ field: `${field}.value`, notEquals: '10.0.4.1' }, two).outcome, 'nonCompliant');
  });
  test('an empty array satisfies every [*] condition (no member fails it)', () => {
    assert.equal(run({ field: `${field}.value`, equals: '127.0.0.1' }, ipRules([])).outcome, 'nonCompliant');
  });
  test('field count with where, and without it', () => {
    assert.equal(
      run({ count: { field, where: { field: `${field}.value`, equals: '127.0.0.1' } }, equals: 1 }, two).outcome,
      'nonCompliant',
    );
    assert.equal(run({ count: { field }, equals: 2 }, two).outcome, 'nonCompliant');
    assert.equal(run({ count: { field }, equals: 0 }, storage({})).outcome, 'nonCompliant', 'a missing array counts 0');
  });
  test("the count pattern page's NSG rule: inbound RDP allowed", () => {
    const nsg = (port: string) => ({
      type: 'Microsoft.Network/networkSecurityGroups',
      name: 'nsg',
      location: 'x',
      properties: { securityRules: [{ name: 'r', properties: { direction: 'Inbound', access: 'Allow', destinationPortRange: port } }] },
    });
    const rules = 'Microsoft.Network/networkSecurityGroups/securityRules[*]';
    const rule = {
      allOf: [
        { field: 'type', equals: 'Microsoft.Network/networkSecurityGroups' },
        {
          count: {
            field: rules,
            where: {
              allOf: [
                { field: `${rules}.direction`, equals: 'Inbound' },
                { field: `${rules}.access`, equals: 'Allow' },
                { field: `${rules}.destinationPortRange`, equals: '3389' },
              ],
            },
          },
          greater: 0,
        },
      ],
    };
    assert.equal(run(rule, nsg('3389')).outcome, 'nonCompliant');
    assert.equal(run(rule, nsg('443')).outcome, 'compliant');
  });
  test('value count with name and current(): a name matching one of the patterns', () => {
    const parameters = { namePatterns: { type: 'Array', defaultValue: ['contoso*', 'fabrikam*'] } };
    const rule = {
      count: { value: "[parameters('namePatterns')]", name: 'pattern', where: { field: 'name', like: "[current('pattern')]" } },
      equals: 0,
    };
    assert.equal(run(rule, storage({}, { name: 'contosodata' }), { parameters }).outcome, 'compliant');
    assert.equal(run(rule, storage({}, { name: 'tailspin' }), { parameters }).outcome, 'nonCompliant');
  });
  test('nested count: members of members, current() of the inner array', () => {
    const vnet = {
      type: 'Microsoft.Network/virtualNetworks',
      name: 'v',
      location: 'x',
      properties: {
        subnets: [
          { name: 'a', properties: { ipConfigurations: [{ id: '1' }, { id: '2' }] } },
          { name: 'b', properties: { ipConfigurations: [] } },
        ],
      },
    };
    const subnets = 'Microsoft.Network/virtualNetworks/subnets[*]';
    const rule = { count: { field: subnets, where: { count: { field: `${subnets}.ipConfigurations[*]` }, greater: 0 } }, equals: 1 };
    assert.equal(run(rule, vnet).outcome, 'nonCompliant');
    const ids = {
      count: {
        field: subnets,
        where: {
          count: {
            field: `${subnets}.ipConfigurations[*]`,
            where: { value: `[current('${subnets}.ipConfigurations[*]').id]`, equals: '2' },
          },
          equals: 1,
        },
      },
      equals: 1,
    };
    assert.equal(run(ids, vnet).outcome, 'nonCompliant');
  });
});
