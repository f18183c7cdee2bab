// PS2002 missing-required-property: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, a3, policyAsCode, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/schema';

const invalid: InvalidCase[] = [
  {
    name: 'reference without policyDefinitionId: the opening brace of the reference',
    text: a3(`{
    "policyDefinitions": [
      ${REF},
      |{| "policyDefinitionReferenceId": "second" }
    ]
  }`),
    code: 'PS2002',
    data: { messageId: 'missing' },
    message: /policyDefinitionId/,
  },
  {
    name: 'policy-as-code: a reference with neither policyDefinitionId nor policyDefinitionName names both',
    text: policyAsCode(`"policyDefinitions": [
      { "policyDefinitionReferenceId": "a", "policyDefinitionName": "deny-rdp" },
      |{| "policyDefinitionReferenceId": "b" }
    ]`),
    code: 'PS2002',
    data: { messageId: 'missingDefinition' },
    message: /'policyDefinitionId' or 'policyDefinitionName'/,
  },
  {
    name: 'policy-as-code: another missing property keeps the plain message',
    text: policyAsCode(`"parameters": { |"effect"|: { "defaultValue": "Audit" } },
    "policyDefinitions": [{ "policyDefinitionReferenceId": "a", "policyDefinitionName": "deny-rdp", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]`),
    code: 'PS2002',
    data: { messageId: 'missing' },
    message: /'type'/,
  },
  {
    name: 'parameter without type: the parameter name is marked',
    text: a3(`{
    "parameters": {
      |"effect"|: { "defaultValue": "Audit" }
    },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    code: 'PS2002',
    message: /'type'/,
  },
  {
    name: 'group without name',
    text: a3(`{
    "policyDefinitionGroups": [|{| "displayName": "No name" }],
    "policyDefinitions": [${REF}]
  }`),
    code: 'PS2002',
  },
  {
    name: 'properties without policyDefinitions: the properties key',
    text: a3(`{ "displayName": "x", "policyDefinitions": [] }`)
      .replace('"policyDefinitions": []', '"description": "y"')
      .replace('"properties"', '|"properties"|'),
    code: 'PS2002',
  },
  {
    name: 'version resource without name: the root object',
    text: `|{|
  "type": "Microsoft.Authorization/policySetDefinitions/versions",
  "properties": { "policyDefinitions": [${REF}] }
}`,
    code: 'PS2002',
    message: /'name'/,
  },
];

const valid: ValidCase[] = [
  {
    name: 'a required property in another casing is not missing (names are read case-insensitively)',
    text: a3(`{
    "policyDefinitions": [{ "PolicyDefinitionId": "${defId('d1')}" }]
  }`),
    notCodes: ['PS2002'],
  },
];

run('missing-required-property', { valid, invalid });
