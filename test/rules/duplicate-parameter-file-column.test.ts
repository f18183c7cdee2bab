// PS9210 duplicate-parameter-file-column: the CSV parameter files it must pass (valid) and the ones it must report, with the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { namedBy, epacTree, withTree, withUnknownSet, HEADER } from '../support/ruleDocuments/parameterFiles';

const invalid: InvalidCase[] = [
  {
    name: "a header twice, in another casing (the framework's starter kit: PRODParameters,PRODParameters)",
    text: `name,referencePath,prodEffect,prodParameters,|PRODParameters|\na1,,Audit,,\na2,,Audit,,\n`,
    code: 'PS9210',
    options: withTree,
    data: { header: 'PRODParameters' },
    related: ['prodParameters'],
  },
  {
    name: 'a quoted header, CRLF line endings',
    text: `"name","referencePath","prodEffect",|"name"|\r\na1,,Audit,x\r\na2,,Audit,y\r\n`,
    code: 'PS9210',
    options: withTree,
  },
  {
    name: 'whatever the set (it need not be known)',
    text: `name,name2,|name|\n`,
    code: 'PS9210',
    options: withUnknownSet,
  },
];

const valid: ValidCase[] = [
  { name: 'distinct headers', text: `${HEADER}\na1,,,Audit,,Audit,\na2,,,Audit,,Audit,\n`, notCodes: ['PS9210'], options: withTree },
  {
    name: 'a CSV no assignment names',
    text: `name,name\na1,a2\n`,
    notCodes: ['PS9210'],
    options: namedBy(epacTree(undefined, 'other.csv')),
  },
  { name: 'empty headers are not names', text: `name,,,\na1,,,\na2,,,\n`, notCodes: ['PS9210'], options: withTree },
];

run('duplicate-parameter-file-column', { valid, invalid });
