// PS2006 enum-value-casing: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, a3, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/schema';

const invalid: InvalidCase[] = [
  {
    name: "parameter type 'string' is a casing hint on the value",
    text: a3(`{
    "parameters": { "effect": { "type": |"string"| } },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    code: 'PS2006',
    data: { canonical: 'String', property: 'type' },
  },
  {
    name: 'every parameter type lowercase (a house style, as in template fragments): one hint for the set, on the first',
    text: a3(`{
    "parameters": { "effect": { "type": |"string"| }, "tagName": { "type": "string" }, "locations": { "type": "array" } },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" }, "tagName": { "value": "[parameters('tagName')]" }, "locations": { "value": "[parameters('locations')]" } } }]
  }`),
    code: 'PS2006',
    count: 1,
    data: { canonical: 'String', count: 3 },
    message: /All 3 parameter types of this set are written in lowercase \('string' for 'String'\).*Said once for the set/,
    fixes: [
      {
        title: "Write the set's 3 parameter types in their canonical casing",
        output: a3(`{
    "parameters": { "effect": { "type": "String" }, "tagName": { "type": "String" }, "locations": { "type": "Array" } },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" }, "tagName": { "value": "[parameters('tagName')]" }, "locations": { "value": "[parameters('locations')]" } } }]
  }`),
        preferred: true,
      },
      {
        title: 'Write every parameter type in its canonical casing (3 in this document)',
        output: a3(`{
    "parameters": { "effect": { "type": "String" }, "tagName": { "type": "String" }, "locations": { "type": "Array" } },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" }, "tagName": { "value": "[parameters('tagName')]" }, "locations": { "value": "[parameters('locations')]" } } }]
  }`),
        preferred: false,
      },
    ],
  },
  {
    name: 'mixed casings are no house style: each lowercase type has its hint',
    text: a3(`{
    "parameters": { "effect": { "type": "String" }, "tagName": { "type": |"string"| }, "locations": { "type": "Array" } },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" }, "tagName": { "value": "[parameters('tagName')]" }, "locations": { "value": "[parameters('locations')]" } } }]
  }`),
    code: 'PS2006',
    count: 1,
    data: { canonical: 'String', property: 'type' },
  },
  {
    name: "policyType 'builtin' is a casing hint",
    text: a3(`{
    "policyType": |"builtin"|,
    "policyDefinitions": [${REF}]
  }`),
    code: 'PS2006',
    data: { canonical: 'BuiltIn' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'a value no casing of an allowed one: an error (PS2003), no casing hint',
    text: a3(`{
    "policyType": "Dynamic",
    "policyDefinitions": [${REF}]
  }`),
    notCodes: ['PS2006'],
    allowErrors: ['PS2003'],
  },
];

run('enum-value-casing', { valid, invalid });
