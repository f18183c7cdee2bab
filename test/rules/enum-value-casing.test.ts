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
