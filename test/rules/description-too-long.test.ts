// PS9005 description-too-long: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withText } from '../support/ruleDocuments/limits';

const invalid: InvalidCase[] = [
  { name: 'description of 513 characters', text: withText('description', 'd'.repeat(513), true), code: 'PS9005', data: { length: 513 } },
];

const valid: ValidCase[] = [
  { name: 'description of exactly 512 characters', text: withText('description', 'd'.repeat(512), false), notCodes: ['PS9005'] },
];

run('description-too-long', { valid, invalid });
