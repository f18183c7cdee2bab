// PS6004 schema-on-non-object: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withParameters } from '../support/ruleDocuments/parameters';

const invalid: InvalidCase[] = [
  {
    name: 'schema on a String parameter: the key',
    text: withParameters(`"p": { "type": "String", |"schema"|: { "type": "string" } }`),
    code: 'PS6004',
    data: { type: 'String' },
  },
  {
    name: "schema on a lowercase 'array' parameter",
    text: withParameters(`"p": { "type": "array", |"schema"|: {} }`),
    code: 'PS6004',
  },
];

const valid: ValidCase[] = [
  {
    name: '"schema": null on an Object parameter declares no schema',
    text: withParameters(`"p": { "type": "Object", "schema": null, "defaultValue": {} }`),
    notCodes: ['PS6004', 'PS6005', 'PS6006'],
  },
  {
    name: '"schema": null on a String parameter (Resources_ZoneResilient.json)',
    text: withParameters(
      `"p": { "allowedValues": ["Both", "Redundant", "Aligned"], "defaultValue": "Both", "schema": null, "type": "string" }`,
    ),
    notCodes: ['PS6004', 'PS6005'],
  },
  {
    name: "an Object parameter (lowercase 'object') with a schema its values satisfy",
    text: withParameters(`"p": {
        "type": "object",
        "schema": { "type": "object", "properties": { "size": { "type": "integer", "minimum": 1 }, "name": { "type": "string", "pattern": "^[a-z]+$" } }, "required": ["size"] },
        "defaultValue": { "size": 2, "name": "abc" },
        "allowedValues": [{ "size": 2, "name": "abc" }, { "size": 3 }]
      }`),
    notCodes: ['PS6004', 'PS6005', 'PS6006', 'PS6007'],
  },
];

run('schema-on-non-object', { valid, invalid });
