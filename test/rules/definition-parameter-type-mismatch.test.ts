// PS8003 definition-parameter-type-mismatch: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, DEF, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withCatalog, ref, LOCATIONS, MULTI, withVariants } from '../support/ruleDocuments/definitions';

const invalid: InvalidCase[] = [
  {
    name: 'a string for an Integer parameter',
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, "maxCount": { "value": |"5"| } }`),
    code: 'PS8003',
    options: withCatalog,
  },
  {
    name: "a string for an 'array' parameter (lowercase type in the index)",
    text: ref(DEF.main, `"parameters": { "listOfLocations": { "value": |"eastus"| } }`),
    code: 'PS8003',
    options: withCatalog,
  },
  {
    name: 'an array for a String parameter: the value key',
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, "effect": { |"value"|: ["Audit"] } }`),
    code: 'PS8003',
    options: withCatalog,
  },
  {
    name: "a string for an 'object' parameter",
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, "labelSelector": { "value": |"app=x"| } }`),
    code: 'PS8003',
    options: withCatalog,
  },
];

const valid: ValidCase[] = [
  {
    name: 'a null value is not type-checked',
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, "maxCount": { "value": null } }`),
    options: withCatalog,
    notCodes: ['PS8003'],
  },
  {
    name: 'a value that fits the type of one variant is not a type mismatch (Integer in one, String in the other)',
    text: ref(`${MULTI}types`, `"parameters": { "p": { "value": "1" } }`),
    options: withVariants,
    notCodes: ['PS8003'],
  },
  {
    name: 'expression values are not type- or allowed-value-checked',
    text: ref(
      DEF.main,
      `"parameters": {
          "listOfLocations": { "value": "[if(empty(parameters('locations')), createArray('eastus'), parameters('locations'))]" },
          "effect": { "value": "[if(equals(parameters('mode'), 'strict'), 'Deny', 'Audit')]" },
          "maxCount": { "value": "[parameters('count')]" }
        }`,
      `"locations": { "type": "Array" }, "mode": { "type": "String" }, "count": { "type": "Integer" }`,
    ),
    options: withCatalog,
    notCodes: ['PS8003', 'PS8004', 'PS8009'],
  },
];

run('definition-parameter-type-mismatch', { valid, invalid });
