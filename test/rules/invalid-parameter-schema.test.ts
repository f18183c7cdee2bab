// PS6005 invalid-parameter-schema: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withParameters } from '../support/ruleDocuments/parameters';

const invalid: InvalidCase[] = [
  {
    name: 'schema that is not a valid JSON Schema',
    text: withParameters(`"p": { "type": "Object", |"schema"|: { "type": "nope" } }`),
    code: 'PS6005',
  },
  {
    name: 'schema that is a string',
    text: withParameters(`"p": { "type": "Object", |"schema"|: "object" }`),
    code: 'PS6005',
  },
];

const valid: ValidCase[] = [
  {
    name: 'a schema on a String parameter is reported as misplaced (PS6004), not also compiled and checked',
    text: withParameters(`"p": { "type": "String", "schema": { "type": "nope" }, "defaultValue": "x" }`),
    notCodes: ['PS6005', 'PS6006'],
    allowErrors: ['PS6004'],
  },
];

run('invalid-parameter-schema', { valid, invalid });
