// PS9001 too-many-references: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { setWithReferences } from '../support/ruleDocuments/limits';

const invalid: InvalidCase[] = [
  { name: '1001 references: the policyDefinitions key', text: setWithReferences(1001, true), code: 'PS9001', data: { count: 1001 } },
];

const valid: ValidCase[] = [{ name: 'exactly 1000 references', text: setWithReferences(1000, false), notCodes: ['PS9001'] }];

run('too-many-references', { valid, invalid });
