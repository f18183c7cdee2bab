// PS6003 default-not-allowed: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withParameters } from '../support/ruleDocuments/parameters';

const invalid: InvalidCase[] = [
  {
    name: 'default not among the allowed values: related to allowedValues',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["Audit", "Deny"], "defaultValue": |"Disabled"| }`),
    code: 'PS6003',
    related: ['"allowedValues"'],
  },
  {
    name: 'array default with an element that is not allowed',
    text: withParameters(`"p": { "type": "Array", "allowedValues": ["eastus", "westus"], |"defaultValue"|: ["eastus", "northpole"] }`),
    code: 'PS6003',
  },
];

const valid: ValidCase[] = [
  {
    name: 'a null default among allowed values declares no default: not compared with them',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["a", "b"], "defaultValue": null }`),
    notCodes: ['PS6003'],
  },
  {
    name: 'a default that is an expression is not compared with the allowed values',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["a", "b"], "defaultValue": "[concat('a', 'b')]" }`),
    notCodes: ['PS6003'],
  },
  {
    name: 'allowedValues that is not an array: the default is not compared with it (the schema reports it)',
    text: withParameters(`"p": { "type": "String", "allowedValues": { "a": "b" }, "defaultValue": "c" }`),
    notCodes: ['PS6003'],
    allowErrors: ['PS2001'],
  },
];

run('default-not-allowed', { valid, invalid });
