// PS7004 malformed-expression: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { D1, passing, setResource } from '../support/ruleDocuments/parameterReferences';

const invalid: InvalidCase[] = [
  {
    name: "missing comma between arguments: the quote where ',' was expected",
    text: passing(`"[concat('a' |'|b')]"`),
    code: 'PS7004',
  },
  {
    name: "an extra ')'",
    text: passing(`"[parameters('effect')|)|]"`),
    code: 'PS7004',
  },
  {
    name: 'an unterminated string literal: its opening quote',
    text: passing(`"[parameters(|'|effect)]"`),
    code: 'PS7004',
  },
  {
    name: 'malformed after escapes in the same string',
    text: passing(`"[concat('\\u0041\\u0042', 'c' |'|d')]"`),
    code: 'PS7004',
  },
  {
    name: "template: a malformed '[[...]' policy expression",
    text: template(
      setResource(
        `{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "e": { "value": "[[concat('a' |'|b')]" } } }] }`,
      ),
    ),
    code: 'PS7004',
  },
];

// In a template, '[[[' escapes twice: the set receives the literal '[[...]', which the service passes on as
// '[...]' for the definition's nested deployment to evaluate (azure-monitor-baseline-alerts, patterns/alz).
const valid: ValidCase[] = [
  {
    name: "template: '[[[if(...)]' is a literal for the set, not an expression of its own",
    text: template(
      setResource(
        `{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "parameters": { "e": { "value": "[[[if(empty(parameters('x')), concat('/subscriptions/', parameters('y')), parameters('x'))]" } } }] }`,
      ),
    ),
    notCodes: ['PS7004', 'PS7001'],
  },
];

run('malformed-expression', { valid, invalid });
