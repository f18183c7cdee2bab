// PS7xxx: [parameters('x')] in reference parameter values; exact ranges of the name inside its quotes.
import { runInvalid, runValid, a3, template, defId, type InvalidCase, type ValidCase } from './rules-harness';

const D1 = defId('d1');

/** A set declaring `effect` (String) and `list` (Array), whose one reference passes `value` to the definition's `p`. */
function passing(value: string, declared = `"effect": { "type": "String" }, "list": { "type": "Array" }`): string {
  return a3(`{
    "parameters": { ${declared} },
    "policyDefinitions": [
      {
        "policyDefinitionId": "${D1}",
        "parameters": {
          "used": { "value": "[concat(parameters('effect'), string(parameters('list')))]" },
          "p": { "value": ${value} }
        }
      }
    ]
  }`);
}

const setResource = (properties: string) => `    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": ${properties}
    }`;

/** A nested deployment (Microsoft.Resources/deployments) whose inline template holds the given resources. */
const nestedDeployment = (resources: string) => `    {
      "type": "Microsoft.Resources/deployments",
      "apiVersion": "2022-09-01",
      "name": "nested",
      "properties": {
        "mode": "Incremental",
        "template": {
          "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
          "contentVersion": "1.0.0.0",
          "resources": [
${resources}
          ]
        }
      }
    }`;

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
    text: passing(`"[parameters('|x|')]"`, ['effect', 'list', ...Array.from({ length: 19 }, (_, i) => `p${i}`)].map((n) => `"${n}": { "type": "String" }`).join(', ')),
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
    name: "the opening bracket itself written as \\u005b",
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
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[parameters('|effect|')]" } } }] }`),
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
    text: template(nestedDeployment(setResource(`{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "e": { "value": "[[if(equals(parameters('|x|'), 'a'), 'b', 'c')]" } } }] }`))),
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
  {
    name: 'a call in another casing than declared: hint, related to the declaration (59 built-in calls)',
    text: passing(`"[parameters('|EFFECT|')]"`),
    code: 'PS7002',
    data: { declared: 'effect' },
    related: ['"effect"'],
  },
  {
    name: 'an unused parameter: warning on its key',
    text: passing(`"Audit"`, `"effect": { "type": "String" }, "list": { "type": "Array" }, |"unused"|: { "type": "String" }`),
    code: 'PS7003',
    severity: 2,
  },
  {
    name: "template: a template-level [parameters('p')] does not use the set's parameter p",
    text: template(
      setResource(`{
        "parameters": { |"p"|: { "type": "String" } },
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "p": { "value": "[parameters('p')]" } } }]
      }`),
      `{ "p": { "type": "string" } }`,
    ),
    code: 'PS7003',
  },
  {
    name: "missing comma between arguments: the quote where ',' was expected",
    text: passing(`"[concat('a' |'|b')]"`),
    code: 'PS7004',
  },
  {
    name: "an extra ')'",
    text: passing(`"[parameters('effect')|)|]"`),
    code: 'PS7004',
  },
  {
    name: 'an unterminated string literal: its opening quote',
    text: passing(`"[parameters(|'|effect)]"`),
    code: 'PS7004',
  },
  {
    name: 'malformed after escapes in the same string',
    text: passing(`"[concat('\\u0041\\u0042', 'c' |'|d')]"`),
    code: 'PS7004',
  },
  {
    name: "template: a malformed '[[...]' policy expression",
    text: template(setResource(`{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "e": { "value": "[[concat('a' |'|b')]" } } }] }`)),
    code: 'PS7004',
  },
  {
    name: "template: [parameters('effect')] of a parameter the template does not declare (the escaped form was meant)",
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "s",
      "properties": {
        "parameters": { "effect": { "type": "String" } },
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[parameters('|effect|')]" } } }]
      }
    }`),
    code: 'PS7005',
  },
  {
    name: "template: a set's own parameter, in another casing, passed unescaped: the message says to escape it",
    text: template(setResource(`{ "parameters": { "Effect": { "type": "String" } }, "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[parameters('|effect|')]" } } }] }`)),
    code: 'PS7005',
    data: { messageId: 'escape' },
  },
  {
    name: 'template: a parameter neither the template nor the set declares',
    text: template(setResource(`{ "parameters": { "effect": { "type": "String" } }, "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[parameters('|nowhere|')]" } } }] }`)),
    code: 'PS7005',
    data: { messageId: 'undefined' },
  },
  {
    name: "'[[' outside a template: a hint, once, on the first such string",
    text: `{
  "name": "s",
  "type": "Microsoft.Authorization/policySetDefinitions",
  "properties": {
    "parameters": { "effect": { "type": "String" } },
    "policyDefinitions": [
      { "policyDefinitionReferenceId": "a", "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": |"[[parameters('effect')]"| } } },
      { "policyDefinitionReferenceId": "b", "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[[parameters('effect')]" } } }
    ]
  }
}`,
    code: 'PS7006',
    severity: 4,
  },
];

const valid: ValidCase[] = [
  {
    name: "'[[' in a template is the escape a template needs: PS7006 says nothing",
    text: template(setResource(`{ "parameters": { "effect": { "type": "String" } }, "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[[parameters('effect')]" } } }] }`)),
    notCodes: ['PS7006'],
  },
  {
    name: "a set's own expressions outside a template, with one bracket: PS7006 says nothing",
    text: a3(`{
    "parameters": { "effect": { "type": "String" } },
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    notCodes: ['PS7006'],
  },
  {
    name: "a set in a nested deployment's template: its expressions see that template's parameters, not the outer one's",
    text: template(nestedDeployment(setResource(`{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[parameters('inner')]" } } }] }`))),
    notCodes: ['PS7005'],
  },
  {
    name: "a set resource on its own (a fragment): the template around it is not in sight, its parameters are not checked",
    text: `{
  "type": "Microsoft.Authorization/policySetDefinitions",
  "apiVersion": "2025-11-01",
  "name": "s",
  "properties": {
    "parameters": { "effect": { "type": "String" } },
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[[parameters('effect')]" }, "other": { "value": "[parameters('fromTemplate')]" } } }]
  }
}`,
    notCodes: ['PS7005'],
  },
  {
    name: 'if(contains(...)) and if(equals(...)) expressions of the built-ins',
    text: passing(`"[if(contains(parameters('list'), 'x'), if(equals(parameters('effect'), 'Deny'), 'Deny', 'Audit'), 'Disabled')]"`),
    notCodes: ['PS7001', 'PS7004'],
  },
  { name: 'a call in another casing is defined', text: passing(`"[parameters('Effect')]"`), notCodes: ['PS7001'] },
  { name: "'[[' in a plain document is a literal string", text: passing(`"[[not an expression]"`), notCodes: ['PS7001', 'PS7004'] },
  { name: "strings that only start or end with a bracket", text: passing(`["[parameters('x')", "parameters('y')]", "[", "]"]`), notCodes: ['PS7001', 'PS7004'] },
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
  {
    name: 'template: reference parameters as a deployment-time expression may use every set parameter',
    text: template(
      setResource(`{
        "parameters": { "effect": { "type": "String" } },
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": "[variables('referenceParameters')]" }]
      }`),
    ),
    notCodes: ['PS7003'],
  },
];

runInvalid('PS7', invalid);
runValid('PS7', valid);
