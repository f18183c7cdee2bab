// PS7001 undefined-parameter: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { D1, passing, setResource, nestedDeployment } from '../support/ruleDocuments/parameterReferences';

const invalid: InvalidCase[] = [
  {
    name: 'template: a parameter declared by a deployment-time expression still has its name; another is not declared',
    text: template(
      setResource(`{
        "parameters": { "effect": "[variables('effectParameter')]" },
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[[parameters('effect')]" }, "p": { "value": "[[parameters('|efect|')]" } } }]
      }`),
    ),
    code: 'PS7001',
    data: { name: 'efect', suggestion: 'effect' },
  },
  {
    name: 'the declared parameters it relates to are the first 20',
    text: passing(
      `"[parameters('|x|')]"`,
      ['effect', 'list', ...Array.from({ length: 19 }, (_, i) => `p${i}`)].map((n) => `"${n}": { "type": "String" }`).join(', '),
    ),
    code: 'PS7001',
    related: ['"effect"', '"list"', ...Array.from({ length: 18 }, (_, i) => `"p${i}"`)],
  },
  {
    name: 'undefined parameter: the name inside the quotes, with a suggestion, related to the declared parameters',
    text: passing(`"[parameters('|efect|')]"`),
    code: 'PS7001',
    data: { name: 'efect', suggestion: 'effect', messageId: 'undefinedDidYouMean' },
    related: ['"effect"', '"list"'],
  },
  {
    name: 'the second parameters() inside if(equals(...))',
    text: passing(`"[if(equals(parameters('effect'),'x'), parameters('|b|'), 'y')]"`),
    code: 'PS7001',
    data: { name: 'b' },
  },
  {
    name: 'the first parameters() inside if(equals(...))',
    text: passing(`"[if(equals(parameters('|a|'),'x'), parameters('effect'), 'y')]"`),
    code: 'PS7001',
  },
  {
    name: 'after a \\u0041 escape in the same string',
    text: passing(`"[concat('\\u0041', parameters('|x|'))]"`),
    code: 'PS7001',
  },
  {
    name: 'after several escapes (\\" \\\\ \\n \\u00e9) in the same string',
    text: passing(`"[concat('\\"', '\\\\', '\\n', '\\u00e9', parameters('|xyz|'))]"`),
    code: 'PS7001',
    data: { name: 'xyz' },
  },
  {
    name: 'a name written with an escape covers the escape as written',
    text: passing(`"[parameters('|\\u0078y|')]"`),
    code: 'PS7001',
    data: { name: 'xy' },
  },
  {
    name: 'the opening bracket itself written as \\u005b',
    text: passing(`"\\u005bparameters('|x|')]"`),
    code: 'PS7001',
  },
  {
    name: 'quotes written as \\u0027',
    text: passing(`"[parameters(\\u0027|x|\\u0027)]"`),
    code: 'PS7001',
  },
  {
    name: 'after a character outside the BMP (two UTF-16 units)',
    text: passing(`"[concat('\u{1F600}', parameters('|x|'))]"`),
    code: 'PS7001',
  },
  {
    name: 'spaces around the call and its argument',
    text: passing(`"[ parameters ( '|x|' ) ]"`),
    code: 'PS7001',
  },
  {
    name: "a doubled quote in the name: it''s",
    text: passing(`"[parameters('|it''s|')]"`),
    code: 'PS7001',
    data: { name: "it's" },
  },
  {
    name: 'property access and indexing after the call',
    text: passing(`"[parameters('|cfg|').items[0]]"`),
    code: 'PS7001',
  },
  {
    name: 'the function name in capitals',
    text: passing(`"[PARAMETERS('|x|')]"`),
    code: 'PS7001',
  },
  {
    name: 'inside a nested object and array value',
    text: passing(`{ "rules": [{ "name": "a", "effect": "[parameters('|missing|')]" }] }`),
    code: 'PS7001',
  },
  {
    name: 'multi-line document with CRLF line endings',
    text: a3(`{
    "parameters": {
      "effect": { "type": "String" }
    },
    "policyDefinitions": [
      {
        "policyDefinitionId": "${D1}",
        "parameters": {
          "effect": {
            "value": "[parameters('effect')]"
          },
          "other": {
            "value": "[if(equals(parameters('effect'), 'Deny'), parameters('|denyMode|'), 'Audit')]"
          }
        }
      }
    ]
  }`),
    code: 'PS7001',
    crlf: true,
  },
  {
    name: 'a set without parameters: no suggestion, nothing related',
    text: a3(
      `{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[parameters('|effect|')]" } } }] }`,
    ),
    code: 'PS7001',
    data: { messageId: 'undefined' },
    related: [],
  },
  {
    name: "template: '[[parameters('x')]' is checked against the set's parameters",
    text: template(
      setResource(`{
        "parameters": { "effect": { "type": "String" } },
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": {
          "effect": { "value": "[[parameters('effect')]" },
          "mode": { "value": "[[parameters('|mode|')]" }
        } }]
      }`),
      `{ "mode": { "type": "string" } }`,
    ),
    code: 'PS7001',
    related: ['"effect"'],
  },
  {
    name: 'template: inside a nested deployment',
    text: template(
      nestedDeployment(
        setResource(
          `{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "e": { "value": "[[if(equals(parameters('|x|'), 'a'), 'b', 'c')]" } } }] }`,
        ),
      ),
    ),
    code: 'PS7001',
  },
  {
    name: 'template: languageVersion 2.0 resources keyed by symbolic name',
    text: `{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  "languageVersion": "2.0",
  "contentVersion": "1.0.0.0",
  "resources": {
    "set": ${setResource(`{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "e": { "value": "[[parameters('|x|')]" } } }] }`).trim()}
  }
}`,
    code: 'PS7001',
  },
];

const valid: ValidCase[] = [
  {
    name: 'if(contains(...)) and if(equals(...)) expressions of the built-ins',
    text: passing(`"[if(contains(parameters('list'), 'x'), if(equals(parameters('effect'), 'Deny'), 'Deny', 'Audit'), 'Disabled')]"`),
    notCodes: ['PS7001', 'PS7004'],
  },
  { name: 'a call in another casing is defined', text: passing(`"[parameters('Effect')]"`), notCodes: ['PS7001'] },
  { name: "'[[' in a plain document is a literal string", text: passing(`"[[not an expression]"`), notCodes: ['PS7001', 'PS7004'] },
  {
    name: 'strings that only start or end with a bracket',
    text: passing(`["[parameters('x')", "parameters('y')]", "[", "]"]`),
    notCodes: ['PS7001', 'PS7004'],
  },
  {
    name: 'expressions outside reference values (metadata, descriptions) and in keys are not checked',
    text: a3(`{
    "metadata": { "note": "[parameters('nope')]", "broken": "[concat('a' 'b')]" },
    "description": "[parameters('nope')]",
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "[parameters('key')]": { "value": 1 } } }]
  }`),
    notCodes: ['PS7001', 'PS7004'],
  },
  {
    name: 'parameters used only inside nested values and larger expressions are used',
    text: a3(`{
    "parameters": { "a": { "type": "String" }, "b": { "type": "Array" } },
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": {
      "x": { "value": { "list": ["[parameters('a')]"] } },
      "y": { "value": "[if(empty(parameters('b')), createArray('z'), parameters('b'))]" }
    } }]
  }`),
    notCodes: ['PS7001', 'PS7003'],
  },
  {
    name: 'unused parameters (82 built-ins) are a warning, not an error',
    text: passing(`"Audit"`, `"effect": { "type": "String" }, "list": { "type": "Array" }, "unused": { "type": "String" }`),
    notCodes: ['PS7001'],
  },
  {
    name: "template: '[parameters('x')]' is a template parameter, and a malformed template expression is not ours",
    text: template(
      setResource(`{
        "parameters": { "effect": { "type": "String" } },
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": {
          "effect": { "value": "[[parameters('effect')]" },
          "mode": { "value": "[parameters('mode')]" },
          "other": { "value": "[concat('a' 'b')]" }
        } }]
      }`),
      `{ "mode": { "type": "string" } }`,
    ),
    notCodes: ['PS7001', 'PS7004'],
  },
  {
    name: 'template: set parameters as a deployment-time expression',
    text: template(
      setResource(`{
        "parameters": "[variables('setParameters')]",
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[[parameters('anything')]" } } }]
      }`),
    ),
    notCodes: ['PS7001'],
  },
];

run('undefined-parameter', { valid, invalid });
