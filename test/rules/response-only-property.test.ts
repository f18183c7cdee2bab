// PS3004 response-only-property: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, a1, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { refWith } from '../support/ruleDocuments/versions';

const invalid: InvalidCase[] = [
  {
    name: 'latestDefinitionVersion in a version resource: the key',
    text: a1(`{ "policyDefinitions": [${refWith('|"latestDefinitionVersion"|: "1.0.0"')}] }`),
    code: 'PS3004',
  },
  {
    name: 'effectiveDefinitionVersion in a templated version resource',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions/versions",
      "apiVersion": "2025-11-01",
      "name": "mySet/1.0.0",
      "properties": { "policyDefinitions": [${refWith('|"effectiveDefinitionVersion"|: "1.0.0"')}] }
    }`),
    code: 'PS3004',
  },
];

const valid: ValidCase[] = [
  {
    name: 'A3 responses carry latestDefinitionVersion and effectiveDefinitionVersion',
    text: a3(`{ "policyDefinitions": [${refWith('"latestDefinitionVersion": "1.0.0", "effectiveDefinitionVersion": "1.0.0"')}] }`),
    notCodes: ['PS3004'],
  },
];

run('response-only-property', { valid, invalid });
