// PS4003 invalid-policy-definition-id: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, a1, template, type InvalidCase } from '../support/ruleTester';
import { D1 } from '../support/ruleDocuments/references';

const invalid: InvalidCase[] = [
  {
    name: 'not a resource ID',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": |"d1"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'definition ID without a name',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": |"/providers/Microsoft.Authorization/policyDefinitions/"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'definition ID whose name is a slash',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": |"/providers/Microsoft.Authorization/policyDefinitions//"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'definition ID with a trailing slash',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": |"${D1}/"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'definitions do not live at resource group scope',
    text: a3(
      `{ "policyDefinitions": [{ "policyDefinitionId": |"/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Authorization/policyDefinitions/x"| }] }`,
    ),
    code: 'PS4003',
  },
  {
    name: 'an assignment ID is not a definition ID',
    text: a1(`{ "policyDefinitions": [{ "policyDefinitionId": |"/providers/Microsoft.Authorization/policyAssignments/x"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'a policy-level literal in a template ("[[...") is not an ID either',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": { "policyDefinitions": [{ "policyDefinitionId": |"[[concat('a', 'b')]"| }] }
    }`),
    code: 'PS4003',
  },
];

run('invalid-policy-definition-id', { valid: [], invalid });
