// PS2005 property-name-casing: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, a3, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/schema';

const invalid: InvalidCase[] = [
  {
    name: 'properties.Version (capital V, 5 built-ins) is a casing hint',
    text: a3(`{
    |"Version"|: "1.0.0",
    "policyDefinitions": [${REF}]
  }`),
    code: 'PS2005',
    data: { canonical: 'version' },
  },
  {
    name: 'PolicyDefinitionReferenceId in another casing',
    text: a3(`{
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", |"PolicyDefinitionReferenceId"|: "r1" }]
  }`),
    code: 'PS2005',
  },
];

const valid: ValidCase[] = [
  {
    name: 'an unknown property that is no casing of a known one: no casing hint',
    text: a3(`{
    "displayNme": "x",
    "policyDefinitions": [${REF}]
  }`),
    notCodes: ['PS2005'],
  },
];

run('property-name-casing', { valid, invalid });
