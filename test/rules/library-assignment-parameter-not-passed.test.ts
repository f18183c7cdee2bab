// PS9209 library-assignment-parameter-not-passed: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { assignment, templateAssignment, epac, withSets, SET_NAME, UNKNOWN_SET_ID } from '../support/ruleDocuments/consumers';

const invalid: InvalidCase[] = [
  {
    name: "a library's assignment that does not pass the required tagName: once, on the parameters key",
    text: assignment(`|"parameters"|: { "effect": { "value": "Deny" } }`),
    code: 'PS9209',
    options: withSets,
    data: { names: "'tagName'", missing: ['tagName'] },
    message: /requires 'tagName' \(no default value\), and this assignment does not pass it/,
    fixes: [
      {
        title: 'Pass the set parameters this assignment does not pass',
        output: assignment(`"parameters": { "effect": { "value": "Deny" }, "tagName": { "value": "" } }`),
        preferred: true,
      },
      {
        title: 'Pass every parameter of the set this assignment does not pass (3, with their defaults)',
        output: assignment(
          `"parameters": { "effect": { "value": "Deny" }, "tagName": { "value": "" }, "excludedResourceGroups": { "value": [] }, "maxAgeDays": { "value": 30 } }`,
        ),
      },
    ],
  },
  {
    name: 'no parameters at all: on the policyDefinitionId key',
    text: `{
  "type": "Microsoft.Authorization/policyAssignments",
  "name": "tags",
  "properties": { |"policyDefinitionId"|: "/providers/Microsoft.Management/managementGroups/\${root}/providers/Microsoft.Authorization/policySetDefinitions/${SET_NAME}", "enforcementMode": "Default" }
}`,
    code: 'PS9209',
    options: withSets,
  },
];

const valid: ValidCase[] = [
  {
    name: 'tagName passed (a placeholder value counts)',
    text: assignment(`"parameters": { "tagName": { "value": "\${tag_name}" } }`),
    notCodes: ['PS9209'],
    options: withSets,
  },
  {
    name: 'in a deployment template it is the error missing-assignment-parameter instead',
    text: templateAssignment(`"parameters": {}`),
    notCodes: ['PS9209'],
    options: withSets,
    allowErrors: ['PS9202'],
  },
  {
    name: "the framework's tree (its parameter file may pass it)",
    text: epac(`"definitionEntry": { "policySetName": "${SET_NAME}" }`),
    notCodes: ['PS9209'],
    options: withSets,
  },
  { name: 'a set that is not known', text: assignment(`"parameters": {}`, UNKNOWN_SET_ID), notCodes: ['PS9209'], options: withSets },
];

run('library-assignment-parameter-not-passed', { valid, invalid });
