// PS9101 invalid-deployment-capacity: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { body, plan, d } from '../support/ruleDocuments/quota';

const invalid: InvalidCase[] = [
  {
    name: 'a fraction halfway: both neighbours are as near',
    text: body('"gpt-4o"', '|2.5|'),
    code: 'PS9101',
    message: /not 2\.5; the nearest valid values are 2 and 3\.$/,
  },
  { name: 'a fraction nearer one', text: body('"gpt-4o"', '|2.4|'), code: 'PS9101', message: /not 2\.4; the nearest valid value is 2\.$/ },
  { name: 'a fraction below 1', text: body('"gpt-4o"', '|0.5|'), code: 'PS9101', message: /not 0\.5; the nearest valid value is 1\.$/ },
  {
    name: 'a fraction nearer the next',
    text: body('"gpt-4o"', '|2.7|'),
    code: 'PS9101',
    message: /not 2\.7; the nearest valid value is 3\.$/,
  },
  { name: 'a boolean', text: plan([d('chat', '|true|')]), code: 'PS9101', message: /not a boolean; the nearest valid value is 1\.$/ },
  { name: 'zero in a plan', text: plan([d('chat', '|0|')]), code: 'PS9101' },
  { name: 'a string', text: plan([d('chat', '|"10"|')]), code: 'PS9101', message: /not '10'/ },
  {
    name: 'a string of a number over 1,000,000: named as a string, not as too large',
    text: plan([d('chat', '|"2000000"|')]),
    code: 'PS9101',
    data: { messageId: 'notPositiveInteger' },
    message: /not '2000000'/,
  },
  {
    name: 'over 1,000,000 units',
    text: plan([d('chat', '|1000001|')]),
    code: 'PS9101',
    data: { messageId: 'tooLarge' },
    message: /1000001/,
  },
];

const valid: ValidCase[] = [
  { name: 'a lone E6 body', text: body('"gpt-4o"', '20'), notCodes: ['PS9101', 'PS9102', 'PS9103', 'PS9104'] },
  { name: 'exactly 1,000,000 units, and 1 unit', text: plan([d('big', '1000000'), d('small', '1')]), notCodes: ['PS9101'] },
];

run('invalid-deployment-capacity', { valid, invalid });
