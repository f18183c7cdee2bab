// PS1002 duplicate-key: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, a3, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/syntax';

const invalid: InvalidCase[] = [
  {
    name: 'duplicate key marks the second key, related to the first',
    text: `{
  "properties": {
    "displayName": "a",
    "policyDefinitions": [${REF}],
    |"displayName"|: "b"
  }
}`,
    code: 'PS1002',
    related: ['"displayName"'],
    data: { key: 'displayName' },
  },
  {
    name: 'duplicate key in a reference, CRLF',
    text: `{
  "properties": {
    "policyDefinitions": [
      {
        "policyDefinitionId": "${defId('d1')}",
        |"policyDefinitionId"|: "${defId('d2')}"
      }
    ]
  }
}`,
    code: 'PS1002',
    crlf: true,
    related: ['"policyDefinitionId"'],
  },
  {
    name: 'duplicate key in a document that also has a syntax error (tolerant parse)',
    text: `{
  "properties": {
    "policyDefinitions": [${REF}],
    "description": "a",
    |"description"|: "b"
    "displayName": "c"
  }
}`,
    code: 'PS1002',
    otherErrors: ['PS1001'],
    related: ['"description"'],
  },
  {
    name: 'a key three times is reported twice, each related to the first',
    text: `{
  "properties": {
    "policyDefinitions": [${REF}],
    "policyType": "Custom",
    "policyType": "Custom",
    |"policyType"|: "Custom"
  }
}`,
    code: 'PS1002',
    count: 2,
    related: ['"policyType"'],
  },
  {
    name: 'duplicate parameter name in the set',
    text: a3(`{
    "parameters": {
      "effect": { "type": "String" },
      |"effect"|: { "type": "String" }
    },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    code: 'PS1002',
  },
];

const valid: ValidCase[] = [
  {
    name: 'same key in different objects is not a duplicate',
    text: a3(`{
    "parameters": { "effect": { "type": "String", "metadata": { "displayName": "e" } } },
    "displayName": "x",
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { "effect": { "value": "[parameters('effect')]" } } }]
  }`),
    notCodes: ['PS1002'],
  },
  {
    name: 'keys differing only in casing are not JSON duplicates',
    text: a3(`{ "version": "1.0.0", "Version": "1.0.0", "policyDefinitions": [${REF}] }`),
    notCodes: ['PS1002'],
  },
  {
    name: "severities: duplicate-key 'off' by rule name",
    text: a3(`{ "displayName": "a", "displayName": "b", "policyDefinitions": [${REF}] }`),
    options: { severities: { 'duplicate-key': 'off' } },
    notCodes: ['PS1002'],
  },
];

run('duplicate-key', { valid, invalid });
