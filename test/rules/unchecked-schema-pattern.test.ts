// PS6007 unchecked-schema-pattern: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase } from '../support/ruleTester';
import { withParameters } from '../support/ruleDocuments/parameters';

const invalid: InvalidCase[] = [
  {
    name: 'lookahead patterns are not checked: info on the schema key',
    text: withParameters(`"p": {
        "type": "Object",
        |"schema"|: { "type": "object", "properties": { "s": { "type": "string", "pattern": "^(?=a)a+$" } } },
        "defaultValue": { "s": "b" }
      }`),
    code: 'PS6007',
    severity: 3,
  },
];

run('unchecked-schema-pattern', { valid: [], invalid });
