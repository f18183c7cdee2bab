// PS3006 version-not-bumped: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, type InvalidCase } from '../support/ruleTester';
import { REF } from '../support/ruleDocuments/versions';

const invalid: InvalidCase[] = [
  {
    name: 'a parameter removed under a minor version (1.2.3 -> 1.3.0): the change needs 2.0.0, on the version',
    text: a3(`{ "version": |"1.3.0"|, "parameters": {}, "policyDefinitions": [${REF}] }`),
    code: 'PS3006',
    options: {
      previous: { text: a3(`{ "version": "1.2.3", "parameters": { "effect": { "type": "String", "defaultValue": "Audit" } }, "policyDefinitions": [${REF}] }`), label: 'HEAD' },
    },
    message: /2\.0\.0/,
  },
];

run('version-not-bumped', { valid: [], invalid });
