// PS5002 duplicate-group-name: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, type InvalidCase } from '../support/ruleTester';
import { D1 } from '../support/ruleDocuments/groups';

const invalid: InvalidCase[] = [
  {
    name: 'duplicate group names compare case-insensitively: related to the first',
    text: a3(`{
    "policyDefinitionGroups": [
      { "name": "Network" },
      { "name": |"NETWORK"| }
    ],
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": ["Network"] }]
  }`),
    code: 'PS5002',
    related: ['"Network"'],
  },
];

run('duplicate-group-name', { valid: [], invalid });
