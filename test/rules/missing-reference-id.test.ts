// PS4002 missing-reference-id: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { D1, D2 } from '../support/ruleDocuments/references';

const invalid: InvalidCase[] = [
  {
    name: 'same definition twice without reference ids: the key of the first, related to the second',
    text: a3(`{
    "policyDefinitions": [
      { |"policyDefinitionId"|: "${D1}" },
      { "policyDefinitionId": "${D1}" }
    ]
  }`),
    code: 'PS4002',
    count: 2,
    related: [`"${D1}"`],
    data: { count: 2 },
  },
  {
    name: 'the same definition 22 times without reference ids: each related to the first 20 others',
    text: a3(
      `{ "policyDefinitions": [{ |"policyDefinitionId"|: "${D1}" }, ${Array.from({ length: 21 }, () => `{ "policyDefinitionId": "${D1}" }`).join(', ')}] }`,
    ),
    code: 'PS4002',
    count: 22,
    related: Array.from({ length: 20 }, () => `"${D1}"`),
    data: { count: 22 },
  },
  {
    name: 'same definition twice, in different casing, only one without a reference id',
    text: a3(`{
    "policyDefinitions": [
      { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "first" },
      {
        |"policyDefinitionId"|: "${D1.toUpperCase()}"
      }
    ]
  }`),
    code: 'PS4002',
    related: [`"${D1}"`],
  },
];

const valid: ValidCase[] = [
  {
    name: 'one reference to a definition needs no policyDefinitionReferenceId (PS4002 is about a definition referenced twice)',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${D1}" }, { "policyDefinitionId": "${D2}" }] }`),
    notCodes: ['PS4002'],
  },
];

run('missing-reference-id', { valid, invalid });
