// PS9207 duplicate-default-message: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { assignment, epac, SET_NAME } from '../support/ruleDocuments/consumers';

const invalid: InvalidCase[] = [
  {
    name: 'two messages without a reference ID: the second one',
    text: assignment(`"nonComplianceMessages": [{ "message": "a" }, { |"message"|: "b" }]`),
    code: 'PS9207',
  },
  {
    name: 'three: the second and the third',
    text: assignment(
      `"nonComplianceMessages": [{ "message": "a" }, { "message": "b", "policyDefinitionReferenceId": "requireTag" }, { |"message"|: "c" }, { "message": "d" }]`,
    ),
    code: 'PS9207',
    count: 2,
  },
];

const valid: ValidCase[] = [
  {
    name: 'one default and one per member',
    text: assignment(`"nonComplianceMessages": [{ "message": "a" }, { "message": "b", "policyDefinitionReferenceId": "requireTag" }]`),
    notCodes: ['PS9207'],
  },
  {
    name: "the framework's tree: one default per node",
    text: epac(`"definitionEntry": { "policySetName": "${SET_NAME}" },
  "nonComplianceMessages": [{ "message": "a" }],
  "children": [{ "nodeName": "prod", "nonComplianceMessages": [{ "message": "b" }] }]`),
    notCodes: ['PS9207'],
  },
];

run('duplicate-default-message', { valid, invalid });
