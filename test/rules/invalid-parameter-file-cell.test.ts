// PS9213 invalid-parameter-file-cell: the CSV parameter files it must pass (valid) and the ones it must report, with the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withTree, withUnknownSet, HEADER } from '../support/ruleDocuments/parameterFiles';

const invalid: InvalidCase[] = [
  {
    name: 'not JSON (quotes not doubled)',
    text: `${HEADER}\na1,,,Audit,|"{tagName: x}"|,Audit,\na2,,,,,,\n`,
    code: 'PS9213',
    options: withTree,
    data: { column: 'prodParameters', problem: 'not valid JSON' },
  },
  {
    name: 'an effect written in a parameters column',
    text: `${HEADER}\na1,,,Audit,,Audit,|Audit|\na2,,,,,,\n`,
    code: 'PS9213',
    options: withTree,
    data: { column: 'nonprodParameters' },
  },
  {
    name: 'JSON that is not an object, in a column of another casing',
    text: `name,PRODparameters\na1,|"[1, 2]"|\na2,\n`,
    code: 'PS9213',
    options: withTree,
    data: { problem: 'not a JSON object of parameter values' },
  },
  {
    name: 'whatever the set (it need not be known)',
    text: `${HEADER}\nx,,,,|{|,,\n`,
    code: 'PS9213',
    options: withUnknownSet,
  },
];

const valid: ValidCase[] = [
  {
    name: 'objects, empty cells, comments and trailing commas',
    text: `${HEADER}\na1,,,,"{""tagName"": ""x""}",,"{ /* c */ ""effect"": ""Deny"", }"\na2,,,,  ,,\n`,
    notCodes: ['PS9213'],
    options: withTree,
  },
  {
    name: 'a column no branch selects',
    text: `name,devParameters\na1,Audit\na2,\n`,
    notCodes: ['PS9213'],
    options: withTree,
  },
  {
    name: 'a duplicated column is not read (duplicate-parameter-file-column says so)',
    text: `name,prodParameters,prodParameters\na1,Audit,\na2,,\n`,
    notCodes: ['PS9213'],
    options: withTree,
    allowErrors: ['PS9210'],
  },
];

run('invalid-parameter-file-cell', { valid, invalid });
