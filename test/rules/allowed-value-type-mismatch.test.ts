// PS6002 allowed-value-type-mismatch: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withParameters } from '../support/ruleDocuments/parameters';

const invalid: InvalidCase[] = [
  {
    name: 'String parameter with a number among its allowed values',
    text: withParameters(`"p": { "type": "String", "allowedValues": ["a", |1|] }`),
    code: 'PS6002',
  },
  {
    name: 'Integer parameter with a string allowed value',
    text: withParameters(`"p": { "type": "Integer", "allowedValues": [|"1"|, 2] }`),
    code: 'PS6002',
  },
];

const valid: ValidCase[] = [
  {
    name: 'a null among the allowed values of an Integer parameter is not a type mismatch',
    text: withParameters(`"p": { "type": "Integer", "allowedValues": [null, 1] }`),
    notCodes: ['PS6002'],
  },
  {
    name: 'an expression among the allowed values of an Integer parameter is not checked against the type',
    text: withParameters(`"p": { "type": "Integer", "allowedValues": ["[parameters('limit')]", 1] }`),
    notCodes: ['PS6002'],
  },
  {
    name: 'allowedValues: [] together with a defaultValue (20 built-in parameters)',
    text: withParameters(`"p": { "type": "String", "allowedValues": [], "defaultValue": "Administrator" }`),
    notCodes: ['PS6002', 'PS6003'],
  },
  {
    name: 'allowedValues: null together with a defaultValue',
    text: withParameters(`"p": { "type": "Array", "defaultValue": [], "allowedValues": null }`),
    notCodes: ['PS6002', 'PS6003'],
  },
];

run('allowed-value-type-mismatch', { valid, invalid });
