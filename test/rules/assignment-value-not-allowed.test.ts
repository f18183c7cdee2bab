// PS9204 assignment-value-not-allowed: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { assignment, withSets } from '../support/ruleDocuments/consumers';

const invalid: InvalidCase[] = [
  {
    name: 'an effect the set does not allow',
    text: assignment(`"parameters": { "tagName": { "value": "env" }, "effect": { "value": |"Modify"| } }`),
    code: 'PS9204',
    options: withSets,
    data: { name: 'effect', value: '"Modify"' },
    message: /allowed: "Audit", "Deny", "Disabled"/,
  },
];

const valid: ValidCase[] = [
  {
    name: 'an allowed value in another casing',
    text: assignment(`"parameters": { "tagName": { "value": "env" }, "effect": { "value": "deny" } }`),
    notCodes: ['PS9204'],
    options: withSets,
  },
  {
    name: 'a parameter without allowedValues',
    text: assignment(`"parameters": { "tagName": { "value": "anything" } }`),
    notCodes: ['PS9204'],
    options: withSets,
  },
  {
    name: 'an expression',
    text: assignment(`"parameters": { "effect": { "value": "[parameters('effect')]" } }`),
    notCodes: ['PS9204'],
    options: withSets,
  },
  {
    name: 'a value of the wrong type is the type rule’s',
    text: assignment(`"parameters": { "effect": { "value": 3 } }`),
    notCodes: ['PS9204'],
    options: withSets,
    allowErrors: ['PS9203'],
  },
];

run('assignment-value-not-allowed', { valid, invalid });
