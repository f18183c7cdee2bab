// PS2001 schema-type: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import assert from 'node:assert/strict';
import { test, describe } from 'node:test';
import { validateText } from '#service';
import { run, defId, a3, a1, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/schema';

const invalid: InvalidCase[] = [
  {
    name: 'policyDefinitions is an object: the key is marked',
    text: a3(`{
    |"policyDefinitions"|: {}
  }`),
    code: 'PS2001',
    data: { expectedType: 'array' },
  },
  {
    name: 'groupNames is a string: the value is marked',
    text: a3(`{
    "policyDefinitionGroups": [{ "name": "a" }],
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "groupNames": |"a"| }]
  }`),
    code: 'PS2001',
  },
  {
    name: 'a reference parameter value without its { "value": ... } wrapper',
    text: a3(`{
    "policyDefinitions": [
      {
        "policyDefinitionId": "${defId('d1')}",
        "parameters": { "effect": |"Audit"| }
      }
    ]
  }`),
    code: 'PS2001',
    data: { expectedType: 'object' },
  },
  {
    name: 'assignPermissions must be a boolean',
    text: a3(`{
    "parameters": { "scope": { "type": "String", "metadata": { "assignPermissions": |"true"| } } },
    "policyDefinitions": [${REF}]
  }`),
    code: 'PS2001',
    otherErrors: [],
  },
  {
    name: 'displayName is a number, CRLF',
    text: a3(`{
    "displayName": |42|,
    "policyDefinitions": [${REF}]
  }`),
    code: 'PS2001',
    crlf: true,
  },
  {
    name: 'a groupNames entry is not a string',
    text: a3(`{
    "policyDefinitionGroups": [{ "name": "a" }],
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "groupNames": ["a", |7|] }]
  }`),
    code: 'PS2001',
  },
  {
    name: 'version resource: policyDefinitionId is an array, so its key is marked',
    text: a1(`{
    "policyDefinitions": [{ |"policyDefinitionId"|: ["x"] }]
  }`),
    code: 'PS2001',
  },
];

const valid: ValidCase[] = [
  {
    name: 'parameter types in every casing real files use',
    text: a3(`{
    "parameters": {
      "a": { "type": "String" }, "b": { "type": "string" }, "c": { "type": "Array" }, "d": { "type": "array" },
      "e": { "type": "Object" }, "f": { "type": "object" }, "g": { "type": "Boolean" }, "h": { "type": "boolean" },
      "i": { "type": "Integer" }, "j": { "type": "integer" }, "k": { "type": "Float" }, "l": { "type": "DateTime" }
    },
    "policyDefinitions": [${REF}]
  }`),
    notCodes: ['PS2001', 'PS2003'],
  },
  {
    name: 'allowedValues: null',
    text: a3(`{
    "parameters": { "ips": { "type": "Array", "defaultValue": [], "allowedValues": null } },
    "policyDefinitions": [${REF}]
  }`),
    notCodes: ['PS2001'],
  },
  {
    name: 'open metadata objects, parameter metadata with extra keys',
    text: a3(`{
    "metadata": { "category": "General", "version": "1.0.0-deprecated", "deprecated": true, "anything": { "nested": [1] } },
    "parameters": { "e": { "type": "String", "metadata": { "displayName": "E", "portalReview": true, "deprecated": true, "strongType": "location", "assignPermissions": true } } },
    "policyDefinitions": [${REF}]
  }`),
    notCodes: ['PS2001', 'PS2004'],
  },
  {
    name: 'a full A3 response: id, name, type, systemData, versions, group fields',
    text: `{
  "id": "/providers/Microsoft.Authorization/policySetDefinitions/test-set",
  "name": "test-set",
  "type": "Microsoft.Authorization/policySetDefinitions",
  "properties": {
    "displayName": "Test", "description": "d", "policyType": "BuiltIn", "version": "1.0.0", "versions": ["1.0.0"],
    "policyDefinitionGroups": [{ "name": "g", "displayName": "G", "description": "d", "category": "c", "additionalMetadataId": "/providers/Microsoft.PolicyInsights/policyMetadata/x" }],
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "policyDefinitionReferenceId": "r", "definitionVersion": "1.*.*", "groupNames": ["g"], "parameters": {} }]
  },
  "systemData": { "createdBy": "a", "createdByType": "User", "createdAt": "2025-01-01T00:00:00Z", "lastModifiedBy": "b", "lastModifiedByType": "ManagedIdentity", "lastModifiedAt": "2025-01-02T00:00:00Z" }
}`,
    notCodes: ['PS2001', 'PS2002', 'PS2003', 'PS2004', 'PS2005', 'PS2006'],
  },
  {
    name: 'ARM template: deployment-time expressions in place of typed values',
    text: template(
      `    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "[parameters('setName')]",
      "location": "[resourceGroup().location]",
      "dependsOn": [],
      "properties": {
        "displayName": "[parameters('displayName')]",
        "policyType": "[parameters('policyType')]",
        "metadata": "[variables('metadata')]",
        "parameters": "[variables('setParameters')]",
        "policyDefinitionGroups": "[variables('groups')]",
        "policyDefinitions": "[variables('references')]"
      }
    }`,
      `{ "setName": { "type": "string" }, "displayName": { "type": "string" }, "policyType": { "type": "string" } }`,
    ),
    notCodes: ['PS2001', 'PS2003', 'PS2004'],
  },
  {
    name: 'ARM template: an expression per reference field',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "policyDefinitions": [
          { "policyDefinitionId": "[variables('defId')]", "groupNames": "[variables('groups')]", "parameters": "[variables('refParameters')]" }
        ]
      }
    }`),
    notCodes: ['PS2001'],
  },
  {
    name: 'a policy definition document is not validated',
    text: `{
  "properties": { "displayName": 5, "policyRule": { "if": {}, "then": {} }, "parameters": { "x": { "type": "Strng" } } }
}`,
    notCodes: ['PS2001', 'PS2003'],
  },
  {
    name: 'a document that is not a policy document gets nothing',
    text: `{ "compilerOptions": { "strict": true }, "properties": { "displayName": 5 } }`,
    notCodes: ['PS2001', 'PS2002', 'PS2004'],
  },
];

run('schema-type', { valid, invalid });

describe("PS2001's words: the types with their articles, null, and the property's own name", () => {
  test('a string, an array, an object, an integer, or null; a name holding a quote keeps it', () => {
    const text = JSON.stringify({
      name: 's',
      properties: {
        displayName: 'x',
        policyType: 5,
        policyDefinitions: 'x',
        description: {},
        parameters: { "it's": 5, p: { type: 'String', metadata: { displayName: 5 } } },
      },
    });
    const messages = validateText(text)
      .diagnostics.filter((d) => d.code === 'PS2001')
      .map((d) => d.message);
    assert.deepEqual(messages.sort(), [
      "'description' must be a string or null, not an object.",
      "'displayName' must be a string, not an integer.",
      "'it's' must be an object, not an integer.",
      "'policyDefinitions' must be an array, not a string.",
      "'policyType' must be a string, not an integer.",
    ]);
  });
});
