// PS5003 unused-group: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { GROUPED } from '../support/ruleDocuments/groups';

const invalid: InvalidCase[] = [
  {
    name: 'severities: unused-group raised to error by rule name',
    text: GROUPED('["Network"]').replace('{ "name": "Storage" }', '{ "name": |"Storage"| }'),
    code: 'PS5003',
    options: { severities: { 'unused-group': 'error' } },
    severity: 1,
  },
  {
    name: 'unused group is a hint on its name',
    text: GROUPED('["Network"]').replace('{ "name": "Storage" }', '{ "name": |"Storage"| }'),
    code: 'PS5003',
    severity: 4,
    // The group goes, with the comma before it.
    fixes: [
      {
        title: "Remove unused group 'Storage'",
        output: GROUPED('["Network"]').replace(',\n      { "name": "Storage" }', ''),
        preferred: true,
      },
    ],
  },
  {
    name: 'unused groups when no reference has groupNames',
    text: GROUPED('[]').replace('{ "name": "Network" }', '{ "name": |"Network"| }'),
    code: 'PS5003',
    count: 2,
  },
];

const valid: ValidCase[] = [
  {
    name: 'template: references as a deployment-time expression leave groups possibly used',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "policyDefinitionGroups": [{ "name": "Network" }],
        "policyDefinitions": "[variables('references')]"
      }
    }`),
    notCodes: ['PS5003'],
  },
];

run('unused-group', { valid, invalid });
