// Consumers of sets (server/src/service/consumers): real assignments from public repositories
// (test/fixtures/consumers/README.md) recognised, resolved to the sets beside them and found clean, and defects
// planted in copies of them reported on their line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText, DefinitionCatalog } from '#service';
import { parseDocumentText } from '#server/service/json/documentValue';
import { REPO_ROOT } from '../support/corpus';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'consumers');
const read = (file: string) => fs.readFileSync(path.join(FIXTURES, file), 'utf8');

const ALZ_SETS = [
  'alz/Audit-UnusedResourcesCostOptimization.alz_policy_set_definition.json',
  'alz/Enforce-ALZ-Decomm.alz_policy_set_definition.json',
];
const EPAC_SET = 'epac/policySetDefinitions/allowed-locations-initiative.jsonc';
const ALZ_DECOMM = 'alz/Enforce-ALZ-Decomm.alz_policy_assignment.json';
const ALZ_UNUSED = 'alz/Audit-UnusedResources.alz_policy_assignment.json';
const EPAC_ASSIGNMENT = 'epac/policyAssignments/allowed-locations-assignments.jsonc';

function catalogOf(sets: Array<{ file: string; text: string }>): DefinitionCatalog {
  const catalog = new DefinitionCatalog();
  for (const set of sets) assert.ok(catalog.addSetDocument(parseDocumentText(set.text), set.file), `${set.file} is a set`);
  return catalog;
}

const realSets = () => catalogOf([...ALZ_SETS, EPAC_SET].map((file) => ({ file, text: read(file) })));

const consumerCodes = (text: string, catalog: DefinitionCatalog | undefined, uri = 'x.json') => {
  const result = validateText(text, { definitions: catalog, uri });
  assert.deepEqual(result.internalErrors, []);
  return { result, ps92: result.diagnostics.filter((d) => d.code.startsWith('PS92')) };
};

test('the real assignments are consumers, each resolved to the set beside it, and clean', () => {
  const catalog = realSets();
  for (const file of [ALZ_DECOMM, ALZ_UNUSED, EPAC_ASSIGNMENT]) {
    const { result, ps92 } = consumerCodes(read(file), catalog, file);
    assert.equal(result.kind, 'policyConsumer', file);
    assert.equal(result.unresolvedAssignments, 0, `${file}: its set is resolved`);
    assert.deepEqual(ps92, [], file);
  }
  // The real exemption list (no expiry, a definition ID) is a consumer too, and clean.
  const exemptions = consumerCodes(read('epac/active-exemptions.jsonc'), catalog);
  assert.equal(exemptions.result.kind, 'policyConsumer');
  assert.deepEqual(exemptions.ps92, []);
});

test('the sets stay sets: recognising consumers changes nothing for them', () => {
  for (const file of [...ALZ_SETS, EPAC_SET]) assert.equal(validateText(read(file), { uri: file }).kind, 'policySetDefinition', file);
});

test('without the sets, nothing is reported and the assignments are counted as not checked', () => {
  for (const file of [ALZ_DECOMM, EPAC_ASSIGNMENT]) {
    const { result, ps92 } = consumerCodes(read(file), undefined, file);
    assert.deepEqual(ps92, []);
    assert.equal(result.unresolvedAssignments, 1);
  }
});

test('a parameter renamed in the ALZ assignment: PS9201 on its line, with the set parameter suggested', () => {
  const text = read(ALZ_DECOMM).replace('"listOfResourceTypesAllowed"', '"listOfResourceTypeAllowed"');
  const { ps92 } = consumerCodes(text, realSets(), ALZ_DECOMM);
  assert.deepEqual(
    ps92.map((d) => [d.code, d.range.start.line + 1, d.data.suggestion]),
    [['PS9201', 16, 'listOfResourceTypesAllowed']],
  );
  assert.equal(ps92[0].relatedInformation?.[0].location.uri, 'alz/Enforce-ALZ-Decomm.alz_policy_set_definition.json');
});

test('a parameter renamed in the set instead: the unchanged assignment is now reported', () => {
  // The set declares effectDisks; the assignment passes EffectDisks (names compare case-insensitively).
  const set = read(ALZ_SETS[0])
    .replaceAll('"effectDisks"', '"diskEffect"')
    .replaceAll("parameters('effectDisks')", "parameters('diskEffect')");
  assert.notEqual(set, read(ALZ_SETS[0]));
  const catalog = catalogOf([{ file: ALZ_SETS[0], text: set }]);
  const { ps92 } = consumerCodes(read(ALZ_UNUSED), catalog, ALZ_UNUSED);
  assert.deepEqual(
    ps92.map((d) => [d.code, d.data.name]),
    [['PS9201', 'EffectDisks']],
  );
});

test("the policy-as-code framework's assignment: a misspelt parameter and an Array given a string", () => {
  const misspelt = read(EPAC_ASSIGNMENT).replace('"AllowedLocations"', '"AllowedLocation"');
  const { ps92 } = consumerCodes(misspelt, realSets(), EPAC_ASSIGNMENT);
  assert.deepEqual(
    ps92.map((d) => [d.code, d.range.start.line + 1, d.data.suggestion]),
    [['PS9201', 14, 'AllowedLocations']],
  );
  const wrongType = read(EPAC_ASSIGNMENT).replace(/"AllowedLocations": \[\s*"eastus2"\s*\]/, '"AllowedLocations": "eastus2"');
  assert.deepEqual(
    consumerCodes(wrongType, realSets(), EPAC_ASSIGNMENT).ps92.map((d) => d.code),
    ['PS9203'],
  );
});

test('a non-compliance message for a member the set does not have, and one for a member it has', () => {
  const add = (id: string) =>
    read(ALZ_UNUSED).replace(
      '"nonComplianceMessages": [',
      `"nonComplianceMessages": [\n      { "message": "m", "policyDefinitionReferenceId": "${id}" },`,
    );
  const set = parseDocumentText(read(ALZ_SETS[0])) as { properties: { policyDefinitions: Array<{ policyDefinitionReferenceId: string }> } };
  const member = set.properties.policyDefinitions[0].policyDefinitionReferenceId;
  assert.ok(read(ALZ_UNUSED).includes('"nonComplianceMessages": ['), 'the fixture has messages to add to');
  assert.deepEqual(consumerCodes(add(member), realSets()).ps92, []);
  assert.deepEqual(
    consumerCodes(add(`${member}-gone`), realSets()).ps92.map((d) => d.code),
    ['PS9205'],
  );
});

test('an expiry planted in the real exemption list, against a clock the caller sets', () => {
  const text = read('epac/active-exemptions.jsonc').replace(
    '"exemptionCategory": "Waiver",',
    '"exemptionCategory": "Waiver",\n            "expiresOn": "2026-01-31T00:00:00Z",',
  );
  const at = (iso: string) => validateText(text, { now: Date.parse(iso) }).diagnostics.filter((d) => d.code === 'PS9208').length;
  assert.equal(at('2026-01-30T00:00:00Z'), 0);
  assert.equal(at('2026-02-01T00:00:00Z'), 1);
});

test('the real latent break: the China copy of Deploy-MDFC-Config requires eight parameters its library assignment does not pass (PS9209, information)', () => {
  const set = 'alz-bicep-china/policy_set_definition_es_mc_Deploy-MDFC-Config.json';
  const catalog = catalogOf([{ file: set, text: read(set) }]);
  const { ps92 } = consumerCodes(read('alz-bicep-china/policy_assignment_es_deploy_mdfc_config.tmpl.json'), catalog);
  assert.deepEqual(
    ps92.map((d) => [d.code, d.severity]),
    [['PS9209', 3]],
  );
  // Oracle: the set's parameters without a default, less the three the assignment passes (read from the files here).
  const setValue = parseDocumentText(read(set)) as { properties: { parameters: Record<string, { defaultValue?: unknown }> } };
  const passed = Object.keys(
    (
      parseDocumentText(read('alz-bicep-china/policy_assignment_es_deploy_mdfc_config.tmpl.json')) as {
        properties: { parameters: Record<string, unknown> };
      }
    ).properties.parameters,
  );
  const expected = Object.entries(setValue.properties.parameters)
    .filter(([name, p]) => !('defaultValue' in p) && !passed.includes(name))
    .map(([name]) => name);
  assert.equal(expected.length, 8);
  assert.deepEqual(ps92[0].data.missing, expected);
});
