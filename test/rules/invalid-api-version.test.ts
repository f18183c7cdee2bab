// PS3005 invalid-api-version: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a1, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF, setResource } from '../support/ruleDocuments/versions';

const invalid: InvalidCase[] = [
  {
    name: "apiVersion '2025-11'",
    text: `{
  "type": "Microsoft.Authorization/policySetDefinitions/versions",
  "apiVersion": |"2025-11"|,
  "name": "1.0.0",
  "properties": { "policyDefinitions": [${REF}] }
}`,
    code: 'PS3005',
  },
];

const valid: ValidCase[] = [
  {
    name: "PS3005 is about version resources: a set's own apiVersion is not checked by it",
    text: template(setResource(`{ "policyDefinitions": [${REF}] }`).replace('"apiVersion": "2025-11-01"', '"apiVersion": "2025-11"')),
    notCodes: ['PS3005'],
  },
  {
    name: 'a version resource whose apiVersion is not a string: left to the schema',
    text: `{
  "type": "Microsoft.Authorization/policySetDefinitions/versions",
  "apiVersion": 20251101,
  "name": "1.0.0",
  "properties": { "policyDefinitions": [${REF}] }
}`,
    notCodes: ['PS3005'],
    allowErrors: ['PS2001'],
  },
  {
    name: 'apiVersion with a -preview suffix',
    text: a1(`{ "policyDefinitions": [${REF}] }`).replace('2025-11-01', '2025-11-01-preview'),
    notCodes: ['PS3005'],
  },
];

run('invalid-api-version', { valid, invalid });
