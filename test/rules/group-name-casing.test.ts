// PS5004 group-name-casing: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase } from '../support/ruleTester';
import { GROUPED } from '../support/ruleDocuments/groups';

const invalid: InvalidCase[] = [
  {
    name: 'groupNames entry in another casing: hint, related to the declaration',
    text: GROUPED('[|"network"|, "Storage"]'),
    code: 'PS5004',
    related: ['"Network"'],
    data: { declared: 'Network' },
  },
];

run('group-name-casing', { valid: [], invalid });
