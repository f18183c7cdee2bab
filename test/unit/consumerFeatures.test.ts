// Completion and hover of a set's parameters inside a consumer (service/features/consumerParameters.ts), on the
// real landing-zone assignment and the set it assigns (test/fixtures/consumers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePolicyDocument, validateText, DefinitionCatalog } from '#service';
import { getCompletions, doHover, getCodeActions, getCodeLenses } from '#features';
import { applyTextEdits, editsOf } from '../support/textEdits';
import { parseDocumentText } from '#server/service/json/documentValue';
import { REPO_ROOT } from '../support/corpus';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'consumers', 'alz');
const assignment = fs.readFileSync(path.join(FIXTURES, 'Audit-UnusedResources.alz_policy_assignment.json'), 'utf8');
const catalog = new DefinitionCatalog();
catalog.addSetDocument(
  parseDocumentText(fs.readFileSync(path.join(FIXTURES, 'Audit-UnusedResourcesCostOptimization.alz_policy_set_definition.json'), 'utf8')),
  'set.json',
);

test("completion in an assignment's parameters offers the set's parameters it does not pass yet", async () => {
  // The assignment passes EffectDisks, EffectPublicIpAddresses and EffectServerFarms: the last one's key emptied.
  const text = assignment.replace('"EffectServerFarms"', '""');
  const offset = assignment.indexOf('"EffectServerFarms"') + 1;
  const list = await getCompletions(parsePolicyDocument(text, { model: false }), offset, { definitions: catalog });
  assert.deepEqual(
    list.items.map((i) => i.label),
    ['effectServerFarms'],
  );
  assert.deepEqual(
    list.items[0].textEdit && 'range' in list.items[0].textEdit ? list.items[0].textEdit.newText : undefined,
    '"effectServerFarms"',
  );
});

test('without the set known, no such items (the schema is asked as before)', async () => {
  const text = assignment.replace('"EffectServerFarms"', '""');
  const list = await getCompletions(parsePolicyDocument(text, { model: false }), assignment.indexOf('"EffectServerFarms"') + 1, {});
  assert.ok(!list.items.some((i) => i.label === 'effectServerFarms'));
});

test("hover on a passed parameter shows the set's declaration (type, default, allowed values)", async () => {
  const hover = await doHover(parsePolicyDocument(assignment), assignment.indexOf('"EffectDisks"') + 3, { definitions: catalog });
  const value = (hover?.contents as { value: string }).value;
  assert.match(value, /set parameter\*\* `effectDisks`: String, default `"Audit"`, one of `"Audit"`, `"Disabled"`/);
  assert.match(value, /of set Audit-UnusedResourcesCostOptimization/);
});

test('the quick fix that passes the missing parameters leaves an assignment the consumer rules accept, whatever the types', () => {
  const types = new DefinitionCatalog();
  types.addSetDocument(
    {
      name: 'typed',
      properties: {
        parameters: {
          aString: { type: 'String' },
          anEffect: { type: 'String', allowedValues: ['AuditIfNotExists', 'Disabled'] },
          aNumber: { type: 'Integer', allowedValues: [7, 14] },
          anInteger: { type: 'Integer' },
          aFloat: { type: 'Float' },
          aBoolean: { type: 'Boolean' },
          anArray: { type: 'Array' },
          anObject: { type: 'Object' },
          aDate: { type: 'DateTime' },
          untyped: {},
          withDefault: { type: 'String', defaultValue: 'kept' },
        },
        policyDefinitions: [
          { policyDefinitionReferenceId: 'a', policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/a' },
        ],
      },
    },
    'typed.json',
  );
  const text = `{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  "contentVersion": "1.0.0.0",
  "resources": [
    {
      "type": "Microsoft.Authorization/policyAssignments",
      "apiVersion": "2024-04-01",
      "name": "t",
      "properties": {
        "policyDefinitionId": "/providers/Microsoft.Management/managementGroups/x/providers/Microsoft.Authorization/policySetDefinitions/typed",
        "parameters": {}
      }
    }
  ]
}`;
  const options = { definitions: types };
  const before = validateText(text, options);
  const missing = before.diagnostics.filter((d) => d.code === 'PS9202');
  assert.equal(missing.length, 10, 'one per required parameter');
  const actions = getCodeActions(before.document, 'file:///a.json', missing, missing[0].range, options);
  assert.deepEqual(
    actions.map((a) => [a.title, a.diagnostics?.length]),
    [
      ['Pass the set parameters this assignment does not pass', 10],
      ['Pass every parameter of the set this assignment does not pass (11, with their defaults)', 10],
    ],
  );
  const fixed = applyTextEdits(text, editsOf(actions[0], 'file:///a.json'));
  const after = validateText(fixed, options).diagnostics.filter((d) => String(d.code).startsWith('PS92'));
  assert.deepEqual(after, [], 'no consumer problem left');
  const passed = (JSON.parse(fixed) as { resources: Array<{ properties: { parameters: Record<string, { value: unknown }> } }> })
    .resources[0].properties.parameters;
  assert.deepEqual(Object.fromEntries(Object.entries(passed).map(([k, v]) => [k, v.value])), {
    aString: '',
    anEffect: 'AuditIfNotExists',
    aNumber: 7,
    anInteger: 0,
    aFloat: 0,
    aBoolean: false,
    anArray: [],
    anObject: {},
    aDate: '',
    untyped: '',
  });
  const all = JSON.parse(applyTextEdits(text, editsOf(actions[1], 'file:///a.json'))) as {
    resources: Array<{ properties: { parameters: Record<string, { value: unknown }> } }>;
  };
  assert.deepEqual(all.resources[0].properties.parameters.withDefault, { value: 'kept' });
});

test('code lens: a consumer that names a known set by its exact ID counts for that set only, as the rules resolve it', () => {
  const setText = (scope: string) =>
    JSON.stringify({
      id: `/providers/Microsoft.Management/managementGroups/${scope}/providers/Microsoft.Authorization/policySetDefinitions/copied`,
      name: 'copied',
      type: 'Microsoft.Authorization/policySetDefinitions',
      properties: {
        policyDefinitions: [
          { policyDefinitionReferenceId: 'a', policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/a' },
        ],
      },
    });
  const known = new DefinitionCatalog();
  known.addSetDocument(JSON.parse(setText('one')), 'one.json');
  known.addSetDocument(JSON.parse(setText('two')), 'two.json');
  const assignmentOf = (scope: string) =>
    parsePolicyDocument(
      JSON.stringify({
        type: 'Microsoft.Authorization/policyAssignments',
        name: 'a',
        properties: {
          policyDefinitionId: `/providers/Microsoft.Management/managementGroups/${scope}/providers/Microsoft.Authorization/policySetDefinitions/copied`,
        },
      }),
    );
  const consumers = [
    { uri: 'file:///exact.json', document: assignmentOf('one') },
    { uri: 'file:///placeholder.json', document: assignmentOf('${root}') },
  ];
  const titles = (scope: string) =>
    getCodeLenses(parsePolicyDocument(setText(scope)), `file:///${scope}.json`, consumers, { definitions: known, command: 'c' }).map(
      (l) => [l.command?.title, (l.command?.arguments?.[2] as Array<{ uri: string }> | undefined)?.map((x) => x.uri)],
    );
  assert.deepEqual(titles('one'), [['assigned in 2 places', ['file:///exact.json', 'file:///placeholder.json']]]);
  assert.deepEqual(titles('two'), [['assigned in 1 place', ['file:///placeholder.json']]]);
  // Without a catalogue, by name at any scope.
  assert.equal(
    getCodeLenses(parsePolicyDocument(setText('two')), 'file:///two.json', consumers, { command: 'c' })[0].command?.title,
    'assigned in 2 places',
  );
});

test("completion of a passed parameter's value offers the set's allowed values", async () => {
  const text = assignment.replace(/("EffectDisks": \{\s*"value": )"Audit"/, '$1""');
  const offset = text.indexOf('"value": ""') + '"value": "'.length;
  const list = await getCompletions(parsePolicyDocument(text, { model: false }), offset, { definitions: catalog });
  assert.deepEqual(
    list.items.map((i) => i.label),
    ['Audit', 'Disabled'],
  );
  assert.equal(list.items[0].textEdit && 'range' in list.items[0].textEdit ? list.items[0].textEdit.newText : undefined, '"Audit"');
  // A parameter the set does not restrict: nothing of ours.
  const none = await getCompletions(parsePolicyDocument(text, { model: false }), offset, {});
  assert.ok(!none.items.some((i) => i.label === 'Disabled'));
});

test("completion of reference IDs: a message's, an override selector's (without the ones listed), the framework's exemptions'", async () => {
  // The set's members, as the set file has them.
  const set = parseDocumentText(
    fs.readFileSync(path.join(FIXTURES, 'Audit-UnusedResourcesCostOptimization.alz_policy_set_definition.json'), 'utf8'),
  ) as { properties: { policyDefinitions: Array<{ policyDefinitionReferenceId: string }> } };
  const ids = set.properties.policyDefinitions.map((r) => r.policyDefinitionReferenceId).sort();
  const withMembers = (members: string) => assignment.replace('"parameters": {', `${members},\n    "parameters": {`);
  const labels = async (text: string, needle: string) =>
    (
      await getCompletions(parsePolicyDocument(text, { model: false }), text.indexOf(needle) + needle.length, { definitions: catalog })
    ).items.map((i) => i.label);
  const message = withMembers('"nonComplianceMessages": [{ "message": "m", "policyDefinitionReferenceId": "" }]');
  assert.deepEqual((await labels(message, '"policyDefinitionReferenceId": "')).sort(), ids);
  const override = withMembers(
    `"overrides": [{ "kind": "policyEffect", "value": "Disabled", "selectors": [{ "kind": "policyDefinitionReferenceId", "in": ["${ids[0]}", ""] }] }]`,
  );
  assert.deepEqual((await labels(override, `"${ids[0]}", "`)).sort(), ids.slice(1));
  // A selector of another kind: no reference IDs.
  const regions = override.replace('"kind": "policyDefinitionReferenceId"', '"kind": "resourceLocation"');
  assert.ok(!(await labels(regions, `"${ids[0]}", "`)).includes(ids[1]));
  const exemptions = JSON.stringify({
    exemptions: [
      {
        name: 'x',
        exemptionCategory: 'Waiver',
        policySetDefinitionName: 'Audit-UnusedResourcesCostOptimization',
        policyDefinitionReferenceIds: [ids[1], ''],
      },
    ],
  });
  assert.deepEqual(
    (await labels(exemptions, `"${ids[1]}","`)).sort(),
    ids.filter((id) => id !== ids[1]),
  );
});

test("completion in the policy-as-code framework's tree: the set's parameter names in any node's parameters, values as they are", async () => {
  const epacDir = path.join(REPO_ROOT, 'test', 'fixtures', 'consumers', 'epac');
  const epacCatalog = new DefinitionCatalog();
  epacCatalog.addSetDocument(
    parseDocumentText(fs.readFileSync(path.join(epacDir, 'policySetDefinitions', 'allowed-locations-initiative.jsonc'), 'utf8')),
    'set.jsonc',
  );
  const tree = fs
    .readFileSync(path.join(epacDir, 'policyAssignments', 'allowed-locations-assignments.jsonc'), 'utf8')
    .replace('"scope": {', '"children": [{ "nodeName": "child", "parameters": {  } }],\n    "scope": {');
  const offset = tree.indexOf('"parameters": {  }') + '"parameters": { '.length;
  const list = await getCompletions(parsePolicyDocument(tree, { model: false }), offset, { definitions: epacCatalog });
  assert.deepEqual(
    list.items.map((i) => [i.label, i.textEdit && 'range' in i.textEdit ? i.textEdit.newText : undefined]),
    [['AllowedLocations', '"AllowedLocations": [$1]']],
  );
  // The root's own parameters pass it already: not offered again there.
  const root = tree.replace('"AllowedLocations": [', '"AllowedLocations": [], "": [');
  const atRoot = await getCompletions(parsePolicyDocument(root, { model: false }), root.indexOf('"": [') + 1, { definitions: epacCatalog });
  assert.ok(!atRoot.items.some((i) => i.label === 'AllowedLocations'));
});

test('the quick fix on an assignment of a single definition says so', () => {
  const known = new DefinitionCatalog();
  const id = '/providers/Microsoft.Authorization/policyDefinitions/00000000-0000-0000-0000-0000000000d1';
  known.addIndex([{ id, name: id.split('/').pop(), version: '1.0.0', parameters: { tagName: { type: 'String' } } }]);
  const text = `{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  "contentVersion": "1.0.0.0",
  "resources": [
    { "type": "Microsoft.Authorization/policyAssignments", "apiVersion": "2024-04-01", "name": "t",
      "properties": { "policyDefinitionId": "${id}", "parameters": {} } }
  ]
}`;
  const result = validateText(text, { definitions: known });
  const missing = result.diagnostics.filter((d) => d.code === 'PS9202');
  assert.equal(missing.length, 1);
  const actions = getCodeActions(result.document, 'file:///a.json', missing, missing[0].range, { definitions: known });
  assert.deepEqual(
    actions.map((a) => a.title),
    ['Pass the definition parameters this assignment does not pass'],
  );
});
