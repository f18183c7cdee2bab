// PS7006 escaped-expression-outside-template: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { D1, setResource } from '../support/ruleDocuments/parameterReferences';

const invalid: InvalidCase[] = [
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
    text: template(
      setResource(
        `{ "parameters": { "effect": { "type": "String" } }, "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "effect": { "value": "[[parameters('effect')]" } } }] }`,
      ),
    ),
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
];

run('escaped-expression-outside-template', { valid, invalid });
