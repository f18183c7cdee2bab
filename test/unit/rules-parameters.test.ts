// PS6xxx: the set's parameter declarations.
import { runInvalid, runValid, a3, template, defId, type InvalidCase, type ValidCase } from './rules-harness';

/** A set declaring the given parameters, each used once so that nothing is unused. */
function withParameters(parameters: string, names: string[] = ['p']): string {
  const uses = names.map((n) => `"${n}": { "value": "[parameters('${n}')]" }`).join(', ');
  return a3(`{
    "parameters": {
      ${parameters}
    },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { ${uses} } }]
  }`);
}

const invalid: InvalidCase[] = [
  {
    name: "String parameter with an array default (CMMC_L3.json): a warning on the key",
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
  {
    name: 'String parameter with a number among its allowed values',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["a", |1|] }`),
    code: 'PS6002',
  },
  {
    name: 'Integer parameter with a string allowed value',
    text: withParameters(`"p": { "type": "Integer", "allowedValues": [|"1"|, 2] }`),
    code: 'PS6002',
  },
  {
    name: 'default not among the allowed values: related to allowedValues',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["Audit", "Deny"], "defaultValue": |"Disabled"| }`),
    code: 'PS6003',
    related: ['"allowedValues"'],
  },
  {
    name: 'array default with an element that is not allowed',
    text: withParameters(`"p": { "type": "Array", "allowedValues": ["eastus", "westus"], |"defaultValue"|: ["eastus", "northpole"] }`),
    code: 'PS6003',
  },
  {
    name: 'schema on a String parameter: the key',
    text: withParameters(`"p": { "type": "String", |"schema"|: { "type": "string" } }`),
    code: 'PS6004',
    data: { type: 'String' },
  },
  {
    name: "schema on a lowercase 'array' parameter",
    text: withParameters(`"p": { "type": "array", |"schema"|: {} }`),
    code: 'PS6004',
  },
  {
    name: 'schema that is not a valid JSON Schema',
    text: withParameters(`"p": { "type": "Object", |"schema"|: { "type": "nope" } }`),
    code: 'PS6005',
  },
  {
    name: 'schema that is a string',
    text: withParameters(`"p": { "type": "Object", |"schema"|: "object" }`),
    code: 'PS6005',
  },
  {
    name: 'object default that misses a required property: the key',
    text: withParameters(`"p": {
        "type": "Object",
        "schema": { "type": "object", "required": ["name"] },
        |"defaultValue"|: { "other": 1 }
      }`),
    code: 'PS6006',
  },
  {
    name: "two Object parameters with other schemas: each default is checked against its own parameter's",
    text: withParameters(
      `"p": { "type": "Object", "schema": { "type": "object", "required": ["a"] }, "defaultValue": { "a": 1 } },
      "q": { "type": "Object", "schema": { "type": "object", "required": ["b"] }, |"defaultValue"|: { "a": 1 } }`,
      ['p', 'q'],
    ),
    code: 'PS6006',
  },
  {
    name: 'an allowed value that violates the schema: its opening brace',
    text: withParameters(`"p": {
        "type": "Object",
        "schema": { "type": "object", "properties": { "size": { "type": "integer" } } },
        "allowedValues": [{ "size": 1 }, |{| "size": "big" }]
      }`),
    code: 'PS6006',
  },
  {
    name: 'a catastrophic pattern is checked in linear time',
    text: withParameters(`"p": {
        "type": "Object",
        "schema": { "type": "object", "properties": { "s": { "type": "string", "pattern": "^(a+)+$" } } },
        |"defaultValue"|: { "s": "${'a'.repeat(5000)}!" }
      }`),
    code: 'PS6006',
  },
  {
    name: 'lookahead patterns are not checked: info on the schema key',
    text: withParameters(`"p": {
        "type": "Object",
        |"schema"|: { "type": "object", "properties": { "s": { "type": "string", "pattern": "^(?=a)a+$" } } },
        "defaultValue": { "s": "b" }
      }`),
    code: 'PS6007',
    severity: 3,
  },
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
    name: 'a default that is an expression is not checked against the parameter schema',
    text: withParameters(`"p": { "type": "Object", "schema": { "type": "object", "required": ["a"] }, "defaultValue": "[json('{}')]" }`),
    notCodes: ['PS6006'],
  },
  {
    name: '"schema": null on an Object parameter declares no schema',
    text: withParameters(`"p": { "type": "Object", "schema": null, "defaultValue": {} }`),
    notCodes: ['PS6004', 'PS6005', 'PS6006'],
  },
  {
    name: 'a schema on a String parameter is reported as misplaced (PS6004), not also compiled and checked',
    text: withParameters(`"p": { "type": "String", "schema": { "type": "nope" }, "defaultValue": "x" }`),
    notCodes: ['PS6005', 'PS6006'],
    allowErrors: ['PS6004'],
  },
  {
    name: 'a null default among allowed values declares no default: not compared with them',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["a", "b"], "defaultValue": null }`),
    notCodes: ['PS6003'],
  },
  {
    name: 'a default that is an expression is not compared with the allowed values',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["a", "b"], "defaultValue": "[concat('a', 'b')]" }`),
    notCodes: ['PS6003'],
  },
  {
    name: 'allowedValues that is not an array: the default is not compared with it (the schema reports it)',
    text: withParameters(`"p": { "type": "String", "allowedValues": { "a": "b" }, "defaultValue": "c" }`),
    notCodes: ['PS6003'],
    allowErrors: ['PS2001'],
  },
  {
    name: 'a null among the allowed values of an Integer parameter is not a type mismatch',
    text: withParameters(`"p": { "type": "Integer", "allowedValues": [null, 1] }`),
    notCodes: ['PS6002'],
  },
  {
    name: 'an expression among the allowed values of an Integer parameter is not checked against the type',
    text: withParameters(`"p": { "type": "Integer", "allowedValues": ["[parameters('limit')]", 1] }`),
    notCodes: ['PS6002'],
  },
  {
    name: 'allowedValues: [] together with a defaultValue (20 built-in parameters)',
    text: withParameters(`"p": { "type": "String", "allowedValues": [], "defaultValue": "Administrator" }`),
    notCodes: ['PS6002', 'PS6003'],
  },
  {
    name: 'allowedValues: null together with a defaultValue',
    text: withParameters(`"p": { "type": "Array", "defaultValue": [], "allowedValues": null }`),
    notCodes: ['PS6002', 'PS6003'],
  },
  {
    name: '"schema": null on a String parameter (Resources_ZoneResilient.json)',
    text: withParameters(`"p": { "allowedValues": ["Both", "Redundant", "Aligned"], "defaultValue": "Both", "schema": null, "type": "string" }`),
    notCodes: ['PS6004', 'PS6005'],
  },
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
    name: "an Object parameter (lowercase 'object') with a schema its values satisfy",
    text: withParameters(`"p": {
        "type": "object",
        "schema": { "type": "object", "properties": { "size": { "type": "integer", "minimum": 1 }, "name": { "type": "string", "pattern": "^[a-z]+$" } }, "required": ["size"] },
        "defaultValue": { "size": 2, "name": "abc" },
        "allowedValues": [{ "size": 2, "name": "abc" }, { "size": 3 }]
      }`),
    notCodes: ['PS6004', 'PS6005', 'PS6006', 'PS6007'],
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

runInvalid('PS6', invalid);
runValid('PS6', valid);
