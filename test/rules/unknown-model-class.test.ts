// PS9102 unknown-model-class: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { BUILT_IN_CAPACITY_TABLE, mergeCapacityTable } from '#service';
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { body } from '../support/ruleDocuments/quota';

const invalid: InvalidCase[] = [
  { name: 'a model without a class', text: body('|"text-embedding-3-large"|', '10'), code: 'PS9102', severity: 3 },
];

const valid: ValidCase[] = [
  {
    name: 'a model the user added to the table',
    text: body('"my-model"', '1'),
    notCodes: ['PS9102'],
    options: {
      quota: {
        table: mergeCapacityTable(BUILT_IN_CAPACITY_TABLE, { classes: { mine: { rpm: 2, tpm: 1000 } }, models: { 'my-model': 'mine' } }),
      },
    },
  },
];

run('unknown-model-class', { valid, invalid });
