// PS7003 unused-parameter: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { D1, passing, setResource } from '../support/ruleDocuments/parameterReferences';

const invalid: InvalidCase[] = [
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
];

const valid: ValidCase[] = [
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

run('unused-parameter', { valid, invalid });
