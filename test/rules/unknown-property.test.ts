// PS2004 unknown-property: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, a3, a1, type InvalidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/schema';

const invalid: InvalidCase[] = [
  {
    name: 'misspelt groupNames in a reference, with a suggestion',
    text: a3(`{
    "policyDefinitionGroups": [{ "name": "a" }],
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", |"groupName"|: ["a"] }]
  }`),
    code: 'PS2004',
    data: { suggestion: 'groupNames' },
  },
  {
    name: 'unknown property at the top level',
    text: `{
  "id": "/providers/Microsoft.Authorization/policySetDefinitions/test-set",
  |"tags"|: {},
  "properties": { "policyDefinitions": [${REF}] }
}`,
    code: 'PS2004',
  },
  {
    name: 'misspelt defaultValue in a parameter',
    text: a3(`{
    "parameters": { "effect": { "type": "String", |"defaultVaule"|: "Audit" } },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    code: 'PS2004',
    data: { suggestion: 'defaultValue' },
  },
  {
    name: 'versions is not a property of a version resource',
    text: a1(`{
    "policyDefinitions": [${REF}],
    |"versions"|: ["1.0.0"]
  }`),
    code: 'PS2004',
  },
];

run('unknown-property', { valid: [], invalid });
