// PS9002 too-many-parameters: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { setWithParameters } from '../support/ruleDocuments/limits';

const invalid: InvalidCase[] = [
  { name: '401 parameters: the parameters key', text: setWithParameters(401, true), code: 'PS9002', data: { count: 401 } },
];

const valid: ValidCase[] = [{ name: 'exactly 400 parameters', text: setWithParameters(400, false), notCodes: ['PS9002', 'PS7003'] }];

run('too-many-parameters', { valid, invalid });
