// PS8004 definition-value-not-allowed: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, DEF, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withCatalog, ref, LOCATIONS, MULTI, withVariants, withVariantsUntyped } from '../support/ruleDocuments/definitions';

const invalid: InvalidCase[] = [
  {
    name: 'PS8004: an Array parameter given a value outside its allowed values is reported even when its type differs',
    text: ref(`${MULTI}list`, `"parameters": { "p": { "value": |"northpole"| } }`),
    code: 'PS8004',
    options: withVariantsUntyped,
  },
  {
    name: 'a value outside the allowed values',
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, "effect": { "value": |"Block"| } }`),
    code: 'PS8004',
    options: withCatalog,
    data: { allowedValues: ['Audit', 'Deny', 'Disabled'] },
    message: /Audit.*Deny.*Disabled/,
  },
  {
    name: 'a value outside allowed values declared in lowercase',
    text: ref(DEF.casing, `"parameters": { "MembersToInclude": { "value": "a" }, "Effect": { "value": |"Deny"| } }`),
    code: 'PS8004',
    options: withCatalog,
  },
];

const valid: ValidCase[] = [
  {
    name: "PS8004: in a template, '[[[parameters(...)]' is not compared as written (its escapes are the host pipeline's: the monitoring baseline passes the set's own parameter this way)",
    text: template(`{
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2021-06-01",
      "name": "net",
      "properties": {
        "displayName": "Net",
        "parameters": { "effect": { "type": "String" } },
        "policyDefinitions": [
          { "policyDefinitionId": "${DEF.main}", "parameters": { ${LOCATIONS}, "effect": { "value": "[[[parameters('effect')]" } } }
        ]
      }
    }`),
    options: withCatalog,
    notCodes: ['PS8004', 'PS8003', 'PS7004'],
  },
  {
    name: 'PS8004: a variant that declares no allowed values allows any value',
    text: ref(`${MULTI}mixed`, `"parameters": { "p": { "value": "Z" } }`),
    options: withVariants,
    notCodes: ['PS8004'],
  },
  {
    name: 'PS8004: a value one variant allows is not reported',
    text: ref(`${MULTI}differ`, `"parameters": { "p": { "value": "B" } }`),
    options: withVariants,
    notCodes: ['PS8004'],
  },
  {
    name: "PS8004: a value of another type than a variant's is left to the type check",
    text: ref(`${MULTI}types`, `"parameters": { "p": { "value": 2 } }`),
    options: withVariantsUntyped,
    notCodes: ['PS8004'],
  },
  {
    name: "PS8004: a value of another type than the parameter's is left to the type check",
    text: ref(`${MULTI}single`, `"parameters": { "p": { "value": "x" } }`),
    options: withVariantsUntyped,
    notCodes: ['PS8004'],
  },
];

run('definition-value-not-allowed', { valid, invalid });
