// PS4004 definition-named-twice: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, policyAsCode, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { D1 } from '../support/ruleDocuments/references';

const invalid: InvalidCase[] = [
  {
    name: 'policy-as-code: policyDefinitionName and policyDefinitionId at once, on the name',
    text: policyAsCode(`"policyDefinitions": [
      { "policyDefinitionReferenceId": "a", |"policyDefinitionName"|: "deny-rdp", "policyDefinitionId": "/providers/Microsoft.Management/managementGroups/root/providers/Microsoft.Authorization/policyDefinitions/deny-rdp" }
    ]`),
    code: 'PS4004',
    related: ['"/providers/Microsoft.Management/managementGroups/root/providers/Microsoft.Authorization/policyDefinitions/deny-rdp"'],
  },
];

const valid: ValidCase[] = [
  {
    name: 'a set resource inside a template is no policy-as-code file: PS4004 says nothing of a policyDefinitionName there',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": { "policyDefinitions": [{ "policyDefinitionName": "deny-rdp", "policyDefinitionId": "${D1}" }] }
    }`),
    notCodes: ['PS4004'],
  },
  {
    name: 'policy-as-code: a reference naming its definition by policyDefinitionName alone',
    text: policyAsCode(`"policyDefinitions": [{ "policyDefinitionReferenceId": "a", "policyDefinitionName": "deny-rdp" }]`),
    notCodes: ['PS4004'],
  },
];

run('definition-named-twice', { valid, invalid });
