// PS9212 parameter-file-member-without-row: the CSV parameter files it must pass (valid) and the ones it must report, with the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withTree, withUnknownSet, HEADER } from '../support/ruleDocuments/parameterFiles';

const invalid: InvalidCase[] = [
  {
    name: 'a member without a row, reported on the name header',
    text: `|name|,referencePath,displayName,prodEffect,prodParameters\na1,,Require,Audit,\n`,
    code: 'PS9212',
    options: withTree,
    data: { count: 1, set: 'tagging-set', definitions: ['a2'] },
    message: /'a2'/,
  },
  {
    name: 'both members, one diagnostic for the set',
    text: `displayName,|"Name"|\nx,\n`,
    code: 'PS9212',
    options: withTree,
    data: { count: 2, definitions: ['a1', 'a2'] },
  },
];

const valid: ValidCase[] = [
  { name: 'a row for each member', text: `${HEADER}\na2,,,,,,\na1,,,,,,\n`, notCodes: ['PS9212'], options: withTree },
  { name: 'the set is not known', text: `${HEADER}\n`, notCodes: ['PS9212'], options: withUnknownSet },
  { name: 'no name column (the framework refuses the file)', text: `displayName\nx\n`, notCodes: ['PS9212'], options: withTree },
];

run('parameter-file-member-without-row', { valid, invalid });
