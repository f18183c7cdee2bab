// PS8010 unknown-custom-definition: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, type InvalidCase } from '../support/ruleTester';
import { withCatalog } from '../support/ruleDocuments/definitions';

const invalid: InvalidCase[] = [
  {
    name: 'a custom definition (management group scope) that no loaded custom definition has, matched by name',
    text: a3(`{
    "policyDefinitions": [{ "policyDefinitionId": |"/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/custom-deff"| }]
  }`),
    code: 'PS8010',
    options: withCatalog,
  },
];

run('unknown-custom-definition', { valid: [], invalid });
