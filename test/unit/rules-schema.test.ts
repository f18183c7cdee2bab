// PS2xxx: the shape of the document against the interface spec.
import { runInvalid, runValid, a1, a3, template, policyAsCode, defId, type InvalidCase, type ValidCase } from './rules-harness';

const REF = `{ "policyDefinitionId": "${defId('d1')}" }`;

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
    text: a3(`{ "displayName": "x", "policyDefinitions": [] }`).replace('"policyDefinitions": []', '"description": "y"').replace('"properties"', '|"properties"|'),
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
  {
    name: 'properties.Version (capital V, 5 built-ins) is a casing hint',
    text: a3(`{
    |"Version"|: "1.0.0",
    "policyDefinitions": [${REF}]
  }`),
    code: 'PS2005',
    data: { canonical: 'version' },
  },
  {
    name: 'PolicyDefinitionReferenceId in another casing',
    text: a3(`{
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", |"PolicyDefinitionReferenceId"|: "r1" }]
  }`),
    code: 'PS2005',
  },
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
    name: 'an enum property whose value is not text: its type is the mistake (PS2001), not its choice (PS2003 nor a casing hint)',
    text: a3(`{
    "policyType": 5,
    "parameters": { "effect": { "type": ["String"] } },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    notCodes: ['PS2003', 'PS2006'],
    allowErrors: ['PS2001'],
  },
  {
    name: 'a value no casing of an allowed one: an error (PS2003), no casing hint',
    text: a3(`{
    "policyType": "Dynamic",
    "policyDefinitions": [${REF}]
  }`),
    notCodes: ['PS2006'],
    allowErrors: ['PS2003'],
  },
  {
    name: 'an unknown property that is no casing of a known one: no casing hint',
    text: a3(`{
    "displayNme": "x",
    "policyDefinitions": [${REF}]
  }`),
    notCodes: ['PS2005'],
  },
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
    name: 'a required property in another casing is not missing (names are read case-insensitively)',
    text: a3(`{
    "policyDefinitions": [{ "PolicyDefinitionId": "${defId('d1')}" }]
  }`),
    notCodes: ['PS2002'],
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

runInvalid('PS2', invalid);
runValid('PS2', valid);
