// PS7002 parameter-reference-casing: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase } from '../support/ruleTester';
import { passing } from '../support/ruleDocuments/parameterReferences';

const invalid: InvalidCase[] = [
  {
    name: 'a call in another casing than declared: hint, related to the declaration (59 built-in calls)',
    text: passing(`"[parameters('|EFFECT|')]"`),
    code: 'PS7002',
    data: { declared: 'effect' },
    related: ['"effect"'],
  },
];

run('parameter-reference-casing', { valid: [], invalid });
