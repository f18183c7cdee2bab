// PS9205 unknown-member-reference-id: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { assignment, epac, withSets, SET_ID, SET_NAME, UNKNOWN_SET_ID } from '../support/ruleDocuments/consumers';

const invalid: InvalidCase[] = [
  {
    name: 'a non-compliance message for a member the set does not have, with did you mean',
    text: assignment(`"nonComplianceMessages": [{ "message": "Tag it", "policyDefinitionReferenceId": |"requireTags"| }]`),
    code: 'PS9205',
    options: withSets,
    data: { id: 'requireTags', suggestion: 'requireTag' },
  },
  {
    name: 'an override selector',
    text: assignment(
      `"overrides": [{ "kind": "policyEffect", "value": "Disabled", "selectors": [{ "kind": "policyDefinitionReferenceId", "in": ["inheritTag", |"removedMember"|] }] }]`,
    ),
    code: 'PS9205',
    options: withSets,
    data: { messageId: 'unknown' },
  },
  {
    name: "the framework's exemption naming its set",
    text: `{
  "exemptions": [
    { "name": "x", "exemptionCategory": "Waiver", "policyAssignmentId": "/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyAssignments/tags",
      "policySetDefinitionId": "${SET_ID}", "policyDefinitionReferenceIds": [|"inheritTags"|] }
  ]
}`,
    code: 'PS9205',
    options: withSets,
  },
  {
    name: "the framework's tree: a node's message",
    text: epac(`"definitionEntry": { "policySetName": "${SET_NAME}" },
  "nonComplianceMessages": [{ "message": "m" }, { "message": "n", "policyDefinitionReferenceId": |"gone"| }]`),
    code: 'PS9205',
    options: withSets,
  },
];

const valid: ValidCase[] = [
  {
    name: 'members, any casing',
    text: assignment(`"nonComplianceMessages": [{ "message": "m", "policyDefinitionReferenceId": "REQUIRETAG" }]`),
    notCodes: ['PS9205'],
    options: withSets,
  },
  {
    name: 'a set that is not known',
    text: assignment(`"nonComplianceMessages": [{ "message": "m", "policyDefinitionReferenceId": "x" }]`, UNKNOWN_SET_ID),
    notCodes: ['PS9205'],
    options: withSets,
  },
  {
    name: 'a selector of another kind',
    text: assignment(
      `"overrides": [{ "kind": "policyEffect", "value": "Audit", "selectors": [{ "kind": "resourceLocation", "in": ["westeurope"] }] }]`,
    ),
    notCodes: ['PS9205'],
    options: withSets,
  },
];

run('unknown-member-reference-id', { valid, invalid });
