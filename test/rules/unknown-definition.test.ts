// PS8006 unknown-definition: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { DefinitionCatalog } from '#service';
import { run, a3, DEF, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withCatalog, ref } from '../support/ruleDocuments/definitions';

const invalid: InvalidCase[] = [
  {
    name: 'an unknown built-in definition',
    text: ref(DEF.missing, '').replace(`"${DEF.missing}"`, `|"${DEF.missing}"|`),
    code: 'PS8006',
    options: withCatalog,
    severity: 2,
    data: { name: DEF.missing.split('/').pop() },
  },
];

const valid: ValidCase[] = [
  {
    name: 'custom (subscription) IDs and set IDs unknown to the index are not reported',
    text: a3(`{ "policyDefinitions": [
      { "policyDefinitionId": "/subscriptions/00000000-0000-0000-0000-000000000009/providers/Microsoft.Authorization/policyDefinitions/mine" },
      { "policyDefinitionId": "/providers/Microsoft.Authorization/policySetDefinitions/00000000-0000-0000-0000-0000000000ff" }
    ] }`),
    options: withCatalog,
    notCodes: ['PS8006'],
  },
  {
    name: 'an ID that is not text (an array holding one) is left to the schema, not looked up',
    text: a3(`{
    "policyDefinitions": [
      { "policyDefinitionId": ["${DEF.missing}"] },
      { "policyDefinitionId": ["/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/custom-deff"] }
    ]
  }`),
    options: withCatalog,
    notCodes: ['PS8006', 'PS8010'],
    allowErrors: ['PS2001'],
  },
  {
    name: 'a catalog without built-ins does not report unknown built-in IDs',
    text: ref(DEF.missing, ''),
    options: { definitions: new DefinitionCatalog() },
    notCodes: ['PS8006'],
  },
];

run('unknown-definition', { valid, invalid });
