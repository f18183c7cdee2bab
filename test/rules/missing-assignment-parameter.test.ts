// PS9202 missing-assignment-parameter: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { assignment, templateAssignment, epac, withSets, SET_NAME } from '../support/ruleDocuments/consumers';

const invalid: InvalidCase[] = [
  {
    name: 'a template assignment that does not pass the required tagName: on the parameters key',
    text: templateAssignment(`|"parameters"|: { "effect": { "value": "Deny" } }`),
    code: 'PS9202',
    options: withSets,
    data: { name: 'tagName' },
    message: /requires parameter 'tagName'/,
    fixes: [
      {
        title: 'Pass the set parameters this assignment does not pass',
        output: templateAssignment(`"parameters": { "effect": { "value": "Deny" }, "tagName": { "value": "" } }`),
        preferred: true,
      },
      {
        title: 'Pass every parameter of the set this assignment does not pass (3, with their defaults)',
        output: templateAssignment(
          `"parameters": { "effect": { "value": "Deny" }, "tagName": { "value": "" }, "excludedResourceGroups": { "value": [] }, "maxAgeDays": { "value": 30 } }`,
        ),
      },
    ],
  },
  {
    name: 'an empty parameters object, written one per line: the fix writes one parameter per line, indented',
    text: templateAssignment(`|"parameters"|: {}`),
    code: 'PS9202',
    options: withSets,
    fixes: [
      {
        title: 'Pass the set parameters this assignment does not pass',
        output: templateAssignment(`"parameters": {
          "tagName": {
            "value": ""
          }
        }`),
        preferred: true,
      },
      {
        title: 'Pass every parameter of the set this assignment does not pass (4, with their defaults)',
        output: templateAssignment(`"parameters": {
          "tagName": {
            "value": ""
          },
          "effect": {
            "value": "Audit"
          },
          "excludedResourceGroups": {
            "value": []
          },
          "maxAgeDays": {
            "value": 30
          }
        }`),
      },
    ],
  },
  {
    name: 'parameters one per line: the fix adds the missing one after the last, as it is written',
    text: templateAssignment(`|"parameters"|: {
          "effect": { "value": "Deny" },
          "maxAgeDays": { "value": 7 }
        }`),
    code: 'PS9202',
    options: withSets,
    fixes: [
      {
        title: 'Pass the set parameters this assignment does not pass',
        output: templateAssignment(`"parameters": {
          "effect": { "value": "Deny" },
          "maxAgeDays": { "value": 7 },
          "tagName": { "value": "" }
        }`),
        preferred: true,
      },
      {
        title: 'Pass every parameter of the set this assignment does not pass (2, with their defaults)',
        output: templateAssignment(`"parameters": {
          "effect": { "value": "Deny" },
          "maxAgeDays": { "value": 7 },
          "tagName": { "value": "" },
          "excludedResourceGroups": { "value": [] }
        }`),
      },
    ],
  },
  {
    name: 'a template assignment without parameters at all: on the policyDefinitionId key',
    text: `{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  "contentVersion": "1.0.0.0",
  "resources": [
    { "type": "Microsoft.Authorization/policyAssignments", "apiVersion": "2024-04-01", "name": "t",
      "properties": { |"policyDefinitionId"|: "/providers/Microsoft.Management/managementGroups/x/providers/Microsoft.Authorization/policySetDefinitions/${SET_NAME}" } }
  ]
}`,
    code: 'PS9202',
    options: withSets,
    fixes: [
      {
        title: 'Pass the set parameters this assignment does not pass',
        output: `{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  "contentVersion": "1.0.0.0",
  "resources": [
    { "type": "Microsoft.Authorization/policyAssignments", "apiVersion": "2024-04-01", "name": "t",
      "properties": { "policyDefinitionId": "/providers/Microsoft.Management/managementGroups/x/providers/Microsoft.Authorization/policySetDefinitions/${SET_NAME}", "parameters": { "tagName": { "value": "" } } } }
  ]
}`,
        preferred: true,
      },
      {
        title: 'Pass every parameter of the set this assignment does not pass (4, with their defaults)',
        output: `{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  "contentVersion": "1.0.0.0",
  "resources": [
    { "type": "Microsoft.Authorization/policyAssignments", "apiVersion": "2024-04-01", "name": "t",
      "properties": { "policyDefinitionId": "/providers/Microsoft.Management/managementGroups/x/providers/Microsoft.Authorization/policySetDefinitions/${SET_NAME}", "parameters": { "tagName": { "value": "" }, "effect": { "value": "Audit" }, "excludedResourceGroups": { "value": [] }, "maxAgeDays": { "value": 30 } } } }
  ]
}`,
      },
    ],
  },
];

const valid: ValidCase[] = [
  {
    name: 'tagName passed',
    text: templateAssignment(`"parameters": { "tagName": { "value": "env" } }`),
    notCodes: ['PS9202'],
    options: withSets,
  },
  {
    name: 'tagName passed in another casing',
    text: templateAssignment(`"parameters": { "TAGNAME": { "value": "env" } }`),
    notCodes: ['PS9202'],
    options: withSets,
  },
  {
    name: "a library's bare assignment resource (completed by a tool before it is deployed) is not checked",
    text: assignment(`"parameters": {}`),
    notCodes: ['PS9202'],
    options: withSets,
  },
  {
    name: "the framework's tree (values may come from its parameter file)",
    text: epac(`"definitionEntry": { "policySetName": "${SET_NAME}" }`),
    notCodes: ['PS9202'],
    options: withSets,
  },
  {
    name: 'parameters passed as a whole by an expression',
    text: templateAssignment(`"parameters": "[variables('values')]"`),
    notCodes: ['PS9202'],
    options: withSets,
  },
];

run('missing-assignment-parameter', { valid, invalid });
