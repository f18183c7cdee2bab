// PS2003 invalid-enum-value: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, a3, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/schema';

const invalid: InvalidCase[] = [
  {
    name: 'unknown parameter type',
    text: a3(`{
    "parameters": { "effect": { "type": |"Strng"| } },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    code: 'PS2003',
    message: /'String'/,
  },
  {
    name: 'unknown policyType',
    text: a3(`{
    "policyType": |"Dynamic"|,
    "policyDefinitions": [${REF}]
  }`),
    code: 'PS2003',
    data: { property: 'policyType' },
  },
  {
    name: 'unknown systemData identity type',
    text: `{
  "id": "/providers/Microsoft.Authorization/policySetDefinitions/test-set",
  "properties": { "policyDefinitions": [${REF}] },
  "systemData": { "createdBy": "someone", "createdByType": |"Robot"| }
}`,
    code: 'PS2003',
  },
  {
    name: 'policyType of a set in an ARM template is checked',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": { "policyType": |"Dynamic"|, "policyDefinitions": [${REF}] }
    }`),
    code: 'PS2003',
  },
];

const valid: ValidCase[] = [
  {
    name: 'an enum property whose value is not text: its type is the mistake (PS2001), not its choice (PS2003 nor a casing hint)',
    text: a3(`{
    "policyType": 5,
    "parameters": { "effect": { "type": ["String"] } },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    notCodes: ['PS2003', 'PS2006'],
    allowErrors: ['PS2001'],
  },
];

run('invalid-enum-value', { valid, invalid });
