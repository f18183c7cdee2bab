// PS7005 undefined-template-parameter: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { D1, setResource, nestedDeployment } from '../support/ruleDocuments/parameterReferences';

const invalid: InvalidCase[] = [
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
    text: template(
      setResource(
        `{ "parameters": { "Effect": { "type": "String" } }, "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[parameters('|effect|')]" } } }] }`,
      ),
    ),
    code: 'PS7005',
    data: { messageId: 'escape' },
  },
  {
    name: 'template: a parameter neither the template nor the set declares',
    text: template(
      setResource(
        `{ "parameters": { "effect": { "type": "String" } }, "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[parameters('|nowhere|')]" } } }] }`,
      ),
    ),
    code: 'PS7005',
    data: { messageId: 'undefined' },
  },
];

const valid: ValidCase[] = [
  {
    name: "a set in a nested deployment's template: its expressions see that template's parameters, not the outer one's",
    text: template(
      nestedDeployment(
        setResource(
          `{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[parameters('inner')]" } } }] }`,
        ),
      ),
    ),
    notCodes: ['PS7005'],
  },
  {
    name: 'a set resource on its own (a fragment): the template around it is not in sight, its parameters are not checked',
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
];

run('undefined-template-parameter', { valid, invalid });
