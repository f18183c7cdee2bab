// PS8008 definition-parameter-casing: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, DEF, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withCatalog, ref, MULTI, withVariants } from '../support/ruleDocuments/definitions';

const invalid: InvalidCase[] = [
  {
    name: 'a parameter in another casing than the definition declares: hint on the key',
    text: ref(DEF.casing, `"parameters": { |"membersToInclude"|: { "value": "a" } }`),
    code: 'PS8008',
    options: withCatalog,
    data: { declared: 'MembersToInclude' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'a parameter written as one variant declares it is not a casing hint, even if another variant cases it otherwise',
    text: a3(`{
    "policyDefinitions": [
      { "policyDefinitionId": "${MULTI}casing-split", "parameters": { "p": { "value": "a" } } },
      { "policyDefinitionId": "${MULTI}casing-split", "parameters": { "P": { "value": "a" } } }
    ]
  }`),
    options: withVariants,
    notCodes: ['PS8008'],
  },
];

run('definition-parameter-casing', { valid, invalid });
