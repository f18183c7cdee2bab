// PS9203 assignment-value-type-mismatch: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { assignment, epac, withSets, SET_NAME } from '../support/ruleDocuments/consumers';

const invalid: InvalidCase[] = [
  {
    name: 'a string for an Array parameter',
    text: assignment(`"parameters": { "tagName": { "value": "env" }, "excludedResourceGroups": { "value": |"rg-1"| } }`),
    code: 'PS9203',
    options: withSets,
    data: { name: 'excludedResourceGroups', type: 'Array', actual: 'a string' },
  },
  {
    name: 'a float for an Integer parameter',
    text: assignment(`"parameters": { "tagName": { "value": "env" }, "maxAgeDays": { "value": |1.5| } }`),
    code: 'PS9203',
    options: withSets,
    data: { actual: 'a number' },
  },
  {
    name: "the framework's values are passed as they are (no value wrapper)",
    text: epac(`"definitionEntry": { "policySetName": "${SET_NAME}" },
  "parameters": { |"tagName"|: ["env"] }`),
    code: 'PS9203',
    options: withSets,
    data: { actual: 'an array' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'values of the declared types',
    text: assignment(
      `"parameters": { "tagName": { "value": "env" }, "excludedResourceGroups": { "value": ["a"] }, "maxAgeDays": { "value": 7 } }`,
    ),
    notCodes: ['PS9203'],
    options: withSets,
  },
  {
    name: 'an ARM expression is filled in at deployment',
    text: assignment(
      `"parameters": { "excludedResourceGroups": { "value": "[parameters('groups')]" }, "maxAgeDays": { "value": "[[parameters('days')]" } }`,
    ),
    notCodes: ['PS9203'],
    options: withSets,
  },
  {
    name: 'placeholders are filled in by a tool',
    text: assignment(
      `"parameters": { "excludedResourceGroups": { "value": "\${excluded_groups}" }, "maxAgeDays": { "value": "{maxAgeDays}" } }`,
    ),
    notCodes: ['PS9203'],
    options: withSets,
  },
  {
    name: "null: a library's value that its module fills in",
    text: assignment(`"parameters": { "tagName": { "value": null }, "maxAgeDays": { "value": null } }`),
    notCodes: ['PS9203'],
    options: withSets,
  },
  {
    name: 'a set that is not known',
    text: assignment(
      `"parameters": { "excludedResourceGroups": { "value": "x" } }`,
      '/providers/Microsoft.Authorization/policySetDefinitions/unknown',
    ),
    notCodes: ['PS9203'],
    options: withSets,
  },
];

run('assignment-value-type-mismatch', { valid, invalid });
