// PS9205 unknown-member-reference-id: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { assignment, consumerCatalog, epac, withSets, SET_ID, SET_NAME, UNKNOWN_SET_ID } from '../support/ruleDocuments/consumers';

/** The assignment files lint gives exemption resources and enrollments: 'tags' assigns tagging-set, 'other' a set not known. */
const withAssignments = {
  definitions: consumerCatalog(),
  assignments: {
    files: [
      { uri: 'file:///a/tags.json', text: assignment('"enforcementMode": "Default"') },
      {
        uri: 'file:///a/other.json',
        text: assignment('"enforcementMode": "Default"', UNKNOWN_SET_ID).replace('"name": "tags"', '"name": "other"'),
      },
    ],
  },
};
const ASSIGNMENT_ID = (name: string) =>
  `/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyAssignments/${name}`;

/** The policy-as-code framework's enrollment file naming the assignment `name`. */
function enrollment(name: string, ids: string): string {
  return `{
  "$schema": "https://raw.githubusercontent.com/Azure/enterprise-azure-policy-as-code/main/Schemas/policy-enrollment-schema.json",
  "name": "team-enrollment",
  "scope": "/subscriptions/11111111-2222-3333-4444-555555555555",
  "policyAssignmentId": "${ASSIGNMENT_ID(name)}",
  "policyDefinitionReferenceIds": [${ids}]
}`;
}

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
  {
    name: "the framework's enrollment, through the assignment it names",
    text: enrollment('tags', `"requireTag", |"requireTags"|`),
    code: 'PS9205',
    options: withAssignments,
    data: { where: 'The enrollment', suggestion: 'requireTag' },
  },
  {
    name: 'an enrollment resource',
    text: `{
  "type": "Microsoft.Authorization/policyEnrollments",
  "apiVersion": "2026-01-01-preview",
  "name": "e",
  "properties": { "policyAssignmentId": "${ASSIGNMENT_ID('TAGS')}", "policyDefinitionReferenceIds": [|"gone"|] }
}`,
    code: 'PS9205',
    options: withAssignments,
  },
  {
    name: 'an exemption resource, through the assignment it names',
    text: `{
  "type": "Microsoft.Authorization/policyExemptions",
  "apiVersion": "2022-07-01-preview",
  "name": "x",
  "properties": { "exemptionCategory": "Waiver", "policyAssignmentId": "${ASSIGNMENT_ID('tags')}", "policyDefinitionReferenceIds": ["inheritTag", |"inheritTags"|] }
}`,
    code: 'PS9205',
    options: withAssignments,
    data: { where: 'The exemption' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'an enrollment of members',
    text: enrollment('tags', `"requireTag", "INHERITTAG"`),
    notCodes: ['PS9205'],
    options: withAssignments,
  },
  {
    name: 'an enrollment whose assignment is not among the files given, or assigns a set not known',
    text: enrollment('not-given', `"x"`),
    notCodes: ['PS9205'],
    options: withAssignments,
  },
  {
    name: 'an enrollment of an assignment of a set not known',
    text: enrollment('other', `"x"`),
    notCodes: ['PS9205'],
    options: withAssignments,
  },
  {
    name: 'an enrollment without the assignments (the editor)',
    text: enrollment('tags', `"x"`),
    notCodes: ['PS9205'],
    options: withSets,
  },
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
