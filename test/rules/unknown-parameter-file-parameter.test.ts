// PS9214 unknown-parameter-file-parameter: the CSV parameter files it must pass (valid) and the ones it must report, with the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withTree, withUnknownSet, HEADER } from '../support/ruleDocuments/parameterFiles';

const invalid: InvalidCase[] = [
  {
    name: 'a parameter the set does not declare, with did you mean; the name marked in the cell',
    text: `${HEADER}\na1,,,,"{|""tagNames""|: ""x""}",,\na2,,,,,,\n`,
    code: 'PS9214',
    options: withTree,
    data: { parameter: 'tagNames', suggestion: 'tagName' },
    related: ['', ''],
  },
  {
    name: 'in an unquoted cell',
    text: `name,prodParameters\na1,{|"nothing"|:1}\na2,\n`,
    code: 'PS9214',
    options: withTree,
    data: { messageId: 'unknown' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'declared parameters, any casing',
    text: `${HEADER}\na1,,,,"{""TAGNAME"": ""x"", ""effect"": ""Deny""}",,\na2,,,,,,\n`,
    notCodes: ['PS9214'],
    options: withTree,
  },
  {
    name: 'the set is not known',
    text: `${HEADER}\na1,,,,"{""x"": 1}",,\n`,
    notCodes: ['PS9214'],
    options: withUnknownSet,
  },
  {
    name: 'a row that names no member is ignored whole',
    text: `${HEADER}\na1,,,,,,\na2,,,,,,\ngone,,,,"{""x"": 1}",,\n`,
    notCodes: ['PS9214'],
    options: withTree,
  },
];

run('unknown-parameter-file-parameter', { valid, invalid });
