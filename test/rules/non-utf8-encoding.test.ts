// PS1006 non-utf8-encoding: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, type InvalidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/syntax';

const invalid: InvalidCase[] = [
  {
    name: 'a file saved as UTF-16 (decoded and checked as its text): one warning, on its first character',
    text: '|{|' + a3(`{ "policyDefinitions": [${REF}] }`).slice(1),
    code: 'PS1006',
    options: { encoding: 'UTF-16LE with a byte order mark' },
    message: /saved as UTF-16LE with a byte order mark; the service expects UTF-8/,
  },
];

run('non-utf8-encoding', { valid: [], invalid });
