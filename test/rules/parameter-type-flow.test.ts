// PS8009 parameter-type-flow: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test, describe } from 'node:test';
import { validateText, type ValidateOptions } from '#service';
import { run, a3, template, DEF, type InvalidCase, type ValidCase, catalog } from '../support/ruleTester';
import { withCatalog, ref, LOCATIONS, MULTI, withVariants } from '../support/ruleDocuments/definitions';

const invalid: InvalidCase[] = [
  {
    name: 'a String set parameter passed whole to an Array parameter: the name in the call',
    text: ref(
      DEF.main,
      `"parameters": { "listOfLocations": { "value": "[parameters('|location|')]" } }`,
      `"location": { "type": "String" }`,
    ),
    code: 'PS8009',
    options: withCatalog,
    data: { setParameter: 'location', setType: 'String', name: 'listOfLocations', type: 'Array' },
  },
  {
    name: "a lowercase 'array' set parameter passed to a String parameter",
    text: ref(
      DEF.main,
      `"parameters": { ${LOCATIONS}, "effect": { "value": "[parameters('|effects|')]" } }`,
      `"effects": { "type": "array" }`,
    ),
    code: 'PS8009',
    options: withCatalog,
  },
  {
    name: "template: a '[[parameters()]' flow of the wrong type",
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "parameters": { "count": { "type": "String" } },
        "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}", "parameters": { ${LOCATIONS}, "maxCount": { "value": "[[parameters('|count|')]" } } }]
      }
    }`),
    code: 'PS8009',
    options: withCatalog,
  },
  {
    name: 'a String set parameter passed whole to a Float parameter: only an Integer flows into a Float',
    text: a3(`{
    "parameters": { "ratio": { "type": "String" } },
    "policyDefinitions": [{ "policyDefinitionId": "${MULTI}float", "parameters": { "p": { "value": "[parameters('|ratio|')]" } } }]
  }`),
    code: 'PS8009',
    options: withVariants,
    data: { setType: 'String', type: 'Float' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'type flows between types a value passes unchanged: Integer to Float, String to DateTime, and to a type one variant has',
    text: a3(`{
    "parameters": { "count": { "type": "Integer" }, "when": { "type": "String" }, "name": { "type": "String" } },
    "policyDefinitions": [
      { "policyDefinitionId": "${MULTI}float", "parameters": { "p": { "value": "[parameters('count')]" } } },
      { "policyDefinitionId": "${MULTI}date", "parameters": { "p": { "value": "[parameters('when')]" } } },
      { "policyDefinitionId": "${MULTI}flow-split", "parameters": { "p": { "value": "[parameters('name')]" } } }
    ]
  }`),
    options: withVariants,
    notCodes: ['PS8009'],
  },
  {
    name: 'type flows that are fine: Integer to Integer, lowercase array to Array, String to String, Object to object',
    text: ref(
      DEF.main,
      `"parameters": {
          "listOfLocations": { "value": "[parameters('l')]" },
          "effect": { "value": "[parameters('e')]" },
          "maxCount": { "value": "[parameters('c')]" },
          "labelSelector": { "value": "[parameters('s')]" }
        }`,
      `"l": { "type": "array" }, "e": { "type": "string" }, "c": { "type": "Integer" }, "s": { "type": "Object" }`,
    ),
    options: withCatalog,
    notCodes: ['PS8009'],
  },
];

run('parameter-type-flow', { valid, invalid });

const codesOf = (text: string, wanted: string[], options: ValidateOptions = {}) =>
  validateText(text, options)
    .diagnostics.map((d) => String(d.code))
    .filter((c) => wanted.includes(c));

describe('a set parameter passed whole to a definition parameter of another type (PS8009)', () => {
  const flow = (setType: string, target: string, value: string) =>
    codesOf(
      a3(`{
    "parameters": { "p": { "type": "${setType}" } },
    "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}", "parameters": { ${target === 'listOfLocations' ? '' : '"listOfLocations": { "value": ["eastus"] }, '}"${target}": { "value": "${value}" } } }]
  }`),
      ['PS8009'],
      { definitions: catalog() },
    );

  test('a DateTime is a string: it flows to a String parameter; a Float does not flow to an Integer one', () => {
    assert.deepEqual(flow('DateTime', 'effect', "[parameters('p')]"), []);
    assert.deepEqual(flow('Float', 'maxCount', "[parameters('p')]"), ['PS8009']);
    assert.deepEqual(flow('Integer', 'effect', "[parameters('p')]"), ['PS8009']);
    assert.deepEqual(flow('String', 'maxCount', "[parameters('p')]"), ['PS8009']);
  });

  test('only a value that is exactly one parameters() call, spaces allowed, passes the parameter whole', () => {
    assert.deepEqual(flow('String', 'listOfLocations', "[ parameters ( 'p' ) ]"), ['PS8009']);
    assert.deepEqual(flow('String', 'listOfLocations', "[concat(parameters('p'))]"), []);
    assert.deepEqual(flow('String', 'listOfLocations', "[parameters('p')] "), []);
    assert.deepEqual(flow('String', 'listOfLocations', " [parameters('p')]"), []);
  });
});
