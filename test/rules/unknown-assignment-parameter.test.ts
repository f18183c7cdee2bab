// PS9201 unknown-assignment-parameter: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import {
  assignment,
  templateAssignment,
  epac,
  withSets,
  SET_ID_ELSEWHERE,
  UNKNOWN_SET_ID,
  SET_NAME,
} from '../support/ruleDocuments/consumers';

const invalid: InvalidCase[] = [
  {
    name: 'a renamed parameter, with did you mean, on the key',
    text: assignment(`"parameters": { "tagName": { "value": "env" }, |"efect"|: { "value": "Deny" } }`),
    code: 'PS9201',
    options: withSets,
    data: { messageId: 'unknownDidYouMean', name: 'efect', suggestion: 'effect' },
    message: /set 'tagging-set' has no parameter 'efect'\. Did you mean 'effect'\?/,
    fixes: [
      {
        title: "Rename to 'effect'",
        output: assignment(`"parameters": { "tagName": { "value": "env" }, "effect": { "value": "Deny" } }`),
        preferred: true,
      },
    ],
  },
  {
    name: 'a parameter the set never had, the set named at another scope (a placeholder)',
    text: assignment(`"parameters": { "tagName": { "value": "env" }, |"location"|: { "value": "westeurope" } }`, SET_ID_ELSEWHERE),
    code: 'PS9201',
    options: withSets,
    data: { messageId: 'unknown', name: 'location' },
  },
  {
    name: "in a template, the set's ID read from a variable",
    text: templateAssignment(
      `"parameters": { "tagName": { "value": "env" }, |"tagNames"|: { "value": "x" } }`,
      "[variables('sets').tagging]",
      `{ "sets": { "tagging": "[concat('/providers/Microsoft.Management/managementGroups/', 'contoso', '/providers/Microsoft.Authorization/policySetDefinitions/${SET_NAME}')]" } }`,
    ),
    code: 'PS9201',
    options: withSets,
    otherErrors: ['PS9202'],
  },
  {
    name: "the policy-as-code framework's tree: a parameter no entry of the file declares (the framework drops it)",
    text: epac(`"definitionEntry": { "policySetName": "${SET_NAME}" },
  "parameters": { "tagName": "env", |"effects"|: "Deny" }`),
    code: 'PS9201',
    options: withSets,
    data: { suggestion: 'effect' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'every parameter declared (any casing)',
    text: assignment(`"parameters": { "TagName": { "value": "env" }, "effect": { "value": "Deny" } }`),
    notCodes: ['PS9201'],
    options: withSets,
  },
  {
    name: 'a set that is not known: not checked, never guessed',
    text: assignment(`"parameters": { "anything": { "value": 1 } }`, UNKNOWN_SET_ID),
    notCodes: ['PS9201'],
    options: withSets,
  },
  { name: 'no catalogue at all', text: assignment(`"parameters": { "anything": { "value": 1 } }`), notCodes: ['PS9201'] },
  {
    name: 'an ID that is an expression left unresolved',
    text: templateAssignment(`"parameters": { "anything": { "value": 1 } }`, "[parameters('setId')]"),
    notCodes: ['PS9201'],
    options: withSets,
  },
  {
    name: "the framework's tree with an entry that is not known: the parameter may be that entry's",
    text: epac(`"definitionEntryList": [{ "policySetName": "${SET_NAME}" }, { "policySetName": "other-set" }],
  "parameters": { "other": "x" }`),
    notCodes: ['PS9201'],
    options: withSets,
  },
];

run('unknown-assignment-parameter', { valid, invalid });
