// PS6008 parameter-name-casing-conflict: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, a3, type InvalidCase, type ValidCase } from '../support/ruleTester';

const invalid: InvalidCase[] = [
  {
    name: 'two parameters passed in one reference whose names differ only in casing',
    text: a3(`{
      "parameters": { "p": { "type": "String" } },
      "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": {
        "effect": { "value": "[parameters('p')]" }, "other": { "value": 1 }, |"EFFECT"|: { "value": "Audit" }
      } }]
    }`),
    code: 'PS6008',
    data: { name: 'EFFECT', first: 'effect' },
  },
  {
    name: 'a casing variant after an exact repeat: one report, related to the first spelling',
    text: a3(`{
      "parameters": { "p": { "type": "String" } },
      "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": {
        "effect": { "value": "[parameters('p')]" }, "eff\\u0065ct": { "value": "Audit" }, |"EFFECT"|: { "value": "Deny" }
      } }]
    }`),
    code: 'PS6008',
    data: { name: 'EFFECT', first: 'effect' },
    related: ['"effect"'],
    otherErrors: ['PS1002'],
  },
  {
    name: 'two parameters passed in one reference, one spelt with an escape',
    text: a3(`{
      "parameters": { "p": { "type": "String" } },
      "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": {
        "effect": { "value": "[parameters('p')]" }, |"Eff\\u0065ct"|: { "value": "Audit" }
      } }]
    }`),
    code: 'PS6008',
  },
];

const valid: ValidCase[] = [
  {
    name: 'passed parameters with similar names, and one passed twice in the same casing (a duplicate key, not a casing conflict)',
    text: a3(`{
      "parameters": { "p": { "type": "String" } },
      "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": {
        "effect": { "value": "[parameters('p')]" }, "effects": { "value": 1 }, "affect": { "value": 2 }, "effect": { "value": "[parameters('p')]" }
      } }]
    }`),
    notCodes: ['PS6008'],
    allowErrors: ['PS1002'],
  },
];

run('parameter-name-casing-conflict', { valid, invalid });
