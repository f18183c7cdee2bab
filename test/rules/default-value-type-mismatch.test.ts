// PS6001 default-value-type-mismatch: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withParameters } from '../support/ruleDocuments/parameters';

const invalid: InvalidCase[] = [
  {
    name: 'String parameter with an array default (CMMC_L3.json): a warning on the key',
    text: withParameters(`"p": { "type": "String", |"defaultValue"|: [] }`),
    code: 'PS6001',
    severity: 2,
    data: { actual: 'an array', type: 'String' },
  },
  {
    name: 'Integer parameter with a fractional default',
    text: withParameters(`"p": { "type": "Integer", "defaultValue": |1.5| }`),
    code: 'PS6001',
  },
  {
    name: "lowercase 'boolean' with a string default, CRLF",
    text: withParameters(`"p": {
        "type": "boolean",
        "defaultValue": |"true"|
      }`),
    code: 'PS6001',
    crlf: true,
    data: { type: 'Boolean' },
  },
  {
    name: 'Object parameter with a string default',
    text: withParameters(`"p": { "type": "Object", "defaultValue": |"{}"| }`),
    code: 'PS6001',
  },
];

const valid: ValidCase[] = [
  {
    name: 'defaults compare case-insensitively with allowed values; array defaults element-wise',
    text: withParameters(
      `"p": { "type": "String", "allowedValues": ["Audit", "Deny"], "defaultValue": "audit" },
      "q": { "type": "Array", "allowedValues": ["eastus", "westus"], "defaultValue": ["EastUS"] },
      "r": { "type": "Array", "allowedValues": [["a", "b"], ["c"]], "defaultValue": ["a", "b"] },
      "s": { "type": "Array", "allowedValues": ["a"], "defaultValue": [] }`,
      ['p', 'q', 'r', 's'],
    ),
    notCodes: ['PS6001', 'PS6002', 'PS6003'],
  },
  {
    name: 'defaults that fit: Float 1, DateTime string, null, Array with the literal "[]" (asb_v2.json)',
    text: withParameters(
      `"p": { "type": "Float", "defaultValue": 1 },
      "q": { "type": "DateTime", "defaultValue": "2024-01-01T00:00:00Z" },
      "r": { "type": "String", "defaultValue": null },
      "s": { "type": "Array", "defaultValue": ["[]"] },
      "t": { "type": "Array", "allowedValues": [1, "a", true, null] }`,
      ['p', 'q', 'r', 's', 't'],
    ),
    notCodes: ['PS6001', 'PS6002', 'PS6003', 'PS7004'],
  },
  {
    name: 'template: deployment-time defaults, allowed values and schemas are not checked',
    text: template(
      `    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "parameters": {
          "p": { "type": "Integer", "defaultValue": "[parameters('count')]", "allowedValues": "[variables('counts')]" },
          "q": { "type": "Object", "schema": "[variables('schema')]", "defaultValue": "[variables('default')]" },
          "r": { "type": "String", "allowedValues": ["[parameters('first')]", "b"], "defaultValue": "[parameters('first')]" }
        },
        "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": {
          "p": { "value": "[[parameters('p')]" }, "q": { "value": "[[parameters('q')]" }, "r": { "value": "[[parameters('r')]" }
        } }]
      }
    }`,
      `{ "count": { "type": "int" }, "first": { "type": "string" } }`,
    ),
    notCodes: ['PS6001', 'PS6002', 'PS6003', 'PS6005', 'PS6006'],
  },
];

run('default-value-type-mismatch', { valid, invalid });
