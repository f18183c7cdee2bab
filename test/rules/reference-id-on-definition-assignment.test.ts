// PS9206 reference-id-on-definition-assignment: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { assignment, epac, DEFINITION_ID, SET_NAME } from '../support/ruleDocuments/consumers';

const invalid: InvalidCase[] = [
  {
    name: 'a message naming a member, on an assignment of a definition (known or not)',
    text: assignment(`"nonComplianceMessages": [{ "message": "m", "policyDefinitionReferenceId": |"requireTag"| }]`, DEFINITION_ID),
    code: 'PS9206',
  },
  {
    name: "the framework's tree whose every entry is a definition",
    text: epac(`"definitionEntry": { "policyName": "require-tag" },
  "overrides": [{ "kind": "policyEffect", "value": "Audit", "selectors": [{ "kind": "policyDefinitionReferenceId", "in": [|"requireTag"|] }] }]`),
    code: 'PS9206',
  },
];

const valid: ValidCase[] = [
  {
    name: 'an assignment of a set',
    text: assignment(`"nonComplianceMessages": [{ "message": "m", "policyDefinitionReferenceId": "requireTag" }]`),
    notCodes: ['PS9206'],
  },
  {
    name: 'a definition assignment with a default message only',
    text: assignment(`"nonComplianceMessages": [{ "message": "m" }]`, DEFINITION_ID),
    notCodes: ['PS9206'],
  },
  {
    name: "the framework's tree with a set among its entries",
    text: epac(`"definitionEntryList": [{ "policyName": "require-tag" }, { "policySetName": "${SET_NAME}" }],
  "nonComplianceMessages": [{ "message": "m", "policyDefinitionReferenceId": "requireTag" }]`),
    notCodes: ['PS9206'],
  },
];

run('reference-id-on-definition-assignment', { valid, invalid });
