// PS6006 value-violates-parameter-schema: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withParameters } from '../support/ruleDocuments/parameters';

const invalid: InvalidCase[] = [
  {
    name: 'object default that misses a required property: the key',
    text: withParameters(`"p": {
        "type": "Object",
        "schema": { "type": "object", "required": ["name"] },
        |"defaultValue"|: { "other": 1 }
      }`),
    code: 'PS6006',
  },
  {
    name: "two Object parameters with other schemas: each default is checked against its own parameter's",
    text: withParameters(
      `"p": { "type": "Object", "schema": { "type": "object", "required": ["a"] }, "defaultValue": { "a": 1 } },
      "q": { "type": "Object", "schema": { "type": "object", "required": ["b"] }, |"defaultValue"|: { "a": 1 } }`,
      ['p', 'q'],
    ),
    code: 'PS6006',
  },
  {
    name: 'an allowed value that violates the schema: its opening brace',
    text: withParameters(`"p": {
        "type": "Object",
        "schema": { "type": "object", "properties": { "size": { "type": "integer" } } },
        "allowedValues": [{ "size": 1 }, |{| "size": "big" }]
      }`),
    code: 'PS6006',
  },
  {
    name: 'a catastrophic pattern is checked in linear time',
    text: withParameters(`"p": {
        "type": "Object",
        "schema": { "type": "object", "properties": { "s": { "type": "string", "pattern": "^(a+)+$" } } },
        |"defaultValue"|: { "s": "${'a'.repeat(5000)}!" }
      }`),
    code: 'PS6006',
  },
];

const valid: ValidCase[] = [
  {
    name: 'a default that is an expression is not checked against the parameter schema',
    text: withParameters(`"p": { "type": "Object", "schema": { "type": "object", "required": ["a"] }, "defaultValue": "[json('{}')]" }`),
    notCodes: ['PS6006'],
  },
];

run('value-violates-parameter-schema', { valid, invalid });
