// PS9211 parameter-file-row-not-member: the CSV parameter files it must pass (valid) and the ones it must report, with the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { namedBy, epacTree, withTree, withUnknownSet, HEADER } from '../support/ruleDocuments/parameterFiles';
import { DEFINITION_ID } from '../support/ruleDocuments/consumers';

const invalid: InvalidCase[] = [
  {
    name: 'a row of a definition the set no longer has',
    text: `${HEADER}\na1,,Require,Audit,,Audit,\n|removed|,,Gone,Deny,,Audit,\na2,,Inherit,Audit,,Audit,\n`,
    code: 'PS9211',
    options: withTree,
    data: { name: 'removed', sets: "set 'tagging-set'" },
    related: ['', ''],
  },
  {
    name: 'a quoted name, in a file whose cells hold line breaks',
    text: `${HEADER}\n"a1","","Require\na tag","Audit","","Audit",""\n|"gone"|,"","x","Deny","","Audit",""\na2,,,,,,\n`,
    code: 'PS9211',
    options: withTree,
  },
  {
    name: 'the file named by a relative path',
    text: `${HEADER}\na1,,,,,,\na2,,,,,,\n|a3|,,,,,,\n`,
    code: 'PS9211',
    options: namedBy(epacTree(undefined, '../parameters/tags.csv')),
  },
];

const valid: ValidCase[] = [
  { name: 'every row a member, any casing', text: `${HEADER}\nA1,,,,,,\na2,,,,,,\n`, notCodes: ['PS9211'], options: withTree },
  { name: 'an empty name is skipped', text: `${HEADER}\na1,,,,,,\n,,,,,,\na2,,,,,,\n`, notCodes: ['PS9211'], options: withTree },
  { name: 'the set is not known', text: `${HEADER}\nremoved,,,,,,\n`, notCodes: ['PS9211'], options: withUnknownSet },
  {
    name: 'a branch that assigns a single definition as well',
    text: `${HEADER}\nremoved,,,,,,\n`,
    notCodes: ['PS9211'],
    options: namedBy(`{
  "nodeName": "/tags/",
  "parameterFile": "tags.csv",
  "definitionEntryList": [{ "policySetName": "tagging-set" }, { "policyId": "${DEFINITION_ID}" }]
}`),
  },
  {
    name: 'a member of the other set named with the file (the union of the branch)',
    text: `${HEADER}\na1,,,,,,\n`,
    notCodes: ['PS9211'],
    options: namedBy(epacTree(), epacTree()),
  },
];

run('parameter-file-row-not-member', { valid, invalid });
