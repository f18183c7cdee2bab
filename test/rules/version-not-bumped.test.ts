// PS3006 version-not-bumped: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test, describe } from 'node:test';
import { validateText } from '#service';
import { run, a3, type InvalidCase, defId } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/versions';

const invalid: InvalidCase[] = [
  {
    name: 'a parameter removed under a minor version (1.2.3 -> 1.3.0): the change needs 2.0.0, on the version',
    text: a3(`{ "version": |"1.3.0"|, "parameters": {}, "policyDefinitions": [${REF}] }`),
    code: 'PS3006',
    options: {
      previous: {
        text: a3(
          `{ "version": "1.2.3", "parameters": { "effect": { "type": "String", "defaultValue": "Audit" } }, "policyDefinitions": [${REF}] }`,
        ),
        label: 'HEAD',
      },
    },
    message: /2\.0\.0/,
    fixes: [
      {
        title: "Change the version to '2.0.0'",
        output: a3(`{ "version": "2.0.0", "parameters": {}, "policyDefinitions": [${REF}] }`),
        preferred: true,
      },
    ],
  },
];

run('version-not-bumped', { valid: [], invalid });

describe("PS3006's messages: which bump, which changes, and a version lowered for nothing", () => {
  const PARAMS = { effect: { type: 'String', defaultValue: 'Audit', allowedValues: ['Audit', 'Deny'] }, tag: { type: 'String' } };
  const REFS = [
    { policyDefinitionReferenceId: 'r1', policyDefinitionId: defId('d1'), parameters: { effect: { value: "[parameters('effect')]" } } },
    { policyDefinitionReferenceId: 'r2', policyDefinitionId: defId('d2') },
  ];
  const set = (version: string | undefined, changes: { parameters?: object; policyDefinitions?: object[]; description?: string } = {}) =>
    JSON.stringify(
      {
        name: 'set1',
        properties: {
          displayName: 'x',
          description: changes.description ?? 'd',
          ...(version === undefined ? {} : { version }),
          parameters: changes.parameters ?? PARAMS,
          policyDefinitions: changes.policyDefinitions ?? REFS,
        },
      },
      null,
      2,
    );
  const messages = (text: string, previous: string) => {
    const result = validateText(text, { assumePolicyDocument: true, previous: { text: previous, label: 'HEAD' } });
    assert.deepEqual(result.internalErrors, [], 'rules threw');
    return result.diagnostics.filter((d) => d.code === 'PS3006').map((d) => d.message);
  };
  const OLD = set('1.2.3');
  const tagRemoved = { parameters: { effect: PARAMS.effect } };

  test('a patch change under the same version: must be greater', () => {
    assert.deepEqual(messages(set('1.2.3', { description: 'other' }), OLD), [
      "Version '1.2.3' must be greater than '1.2.3' (HEAD): the set changed (description-changed); use '1.2.4'.",
    ]);
  });

  test('a minor or a major change under the same version: not bumped enough, naming the bump and only its changes', () => {
    const added = [...REFS, { policyDefinitionReferenceId: 'r3', policyDefinitionId: defId('d3') }];
    assert.deepEqual(messages(set('1.2.3', { policyDefinitions: added }), OLD), [
      "Version '1.2.3' is not bumped enough for the changes since HEAD (1.2.3): they need a minor version (reference-added); use '1.3.0'.",
    ]);
    // A description changed too (a patch change): not named beside the major one.
    assert.deepEqual(messages(set('1.2.3', { ...tagRemoved, description: 'other' }), OLD), [
      "Version '1.2.3' is not bumped enough for the changes since HEAD (1.2.3): they need a major version (parameter-removed); use '2.0.0'.",
    ]);
  });

  test('three kinds of change are named; a fourth is an ellipsis', () => {
    const three = { parameters: { effect: { type: 'Array', defaultValue: ['Audit'] }, required: { type: 'String' } } };
    assert.deepEqual(messages(set('1.3.0', three), OLD), [
      "Version '1.3.0' is not bumped enough for the changes since HEAD (1.2.3): they need a major version (parameter-added-without-default, parameter-type-changed, parameter-removed); use '2.0.0'.",
    ]);
    assert.deepEqual(messages(set('1.3.0', { ...three, policyDefinitions: [REFS[0]] }), OLD), [
      "Version '1.3.0' is not bumped enough for the changes since HEAD (1.2.3): they need a major version (parameter-added-without-default, parameter-type-changed, parameter-removed, ...); use '2.0.0'.",
    ]);
  });

  test('a version lowered with nothing changed says so, and asks for the earlier one back', () => {
    assert.deepEqual(messages(set('1.2.2'), OLD), [
      "Version '1.2.2' is lower than '1.2.3' (HEAD), and nothing changed that needs a new version: use '1.2.3'.",
    ]);
    assert.deepEqual(messages(set('1.2.3'), OLD), [], 'the same version, nothing changed');
  });

  test('an earlier text that is not JSON, or where this set is new, has nothing to compare with; the setting for a reference added reaches the rule', () => {
    assert.deepEqual(messages(set('1.2.3', tagRemoved), '{ not json'), []);
    const resource = (name: string, version: string) =>
      `{ "type": "Microsoft.Authorization/policySetDefinitions", "apiVersion": "2025-11-01", "name": "${name}", "properties": { "version": "${version}", "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }] } }`;
    const template = (...resources: string[]) =>
      `{ "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#", "contentVersion": "1.0.0.0", "resources": [${resources.join(', ')}] }`;
    assert.deepEqual(
      messages(template(resource('a', '1.0.0'), resource('c', '1.0.0')), template(resource('a', '1.0.0'), resource('b', '2.0.0'))),
      [],
      'set c is new',
    );
    const added = [...REFS, { policyDefinitionReferenceId: 'r3', policyDefinitionId: defId('d3') }];
    const withSetting = validateText(set('1.3.0', { policyDefinitions: added }), {
      assumePolicyDocument: true,
      previous: { text: OLD, label: 'HEAD', referenceAdded: 'major' },
    });
    assert.deepEqual(
      withSetting.diagnostics.filter((d) => d.code === 'PS3006').map((d) => d.data.suggested),
      ['2.0.0'],
    );
  });

  test('versions of several digits are checked; one that is not #.#.# is left to invalid-version; no earlier version, nothing to compare', () => {
    assert.deepEqual(messages(set('10.20.30', tagRemoved), set('10.20.30')), [
      "Version '10.20.30' is not bumped enough for the changes since HEAD (10.20.30): they need a major version (parameter-removed); use '11.0.0'.",
    ]);
    for (const odd of ['1.3.0-preview', 'v1.3.0']) assert.deepEqual(messages(set(odd, tagRemoved), OLD), [], odd);
    assert.deepEqual(messages(set('1.2.3', tagRemoved), set(undefined)), [], 'no earlier version');
    assert.deepEqual(messages(set(undefined, tagRemoved), OLD), [], 'no version now');
  });
});
