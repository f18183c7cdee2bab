// PS8010 unknown-custom-definition: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, type InvalidCase } from '../support/ruleTester';
import { withCatalog } from '../support/ruleDocuments/definitions';
import { DefinitionCatalog } from '#service';

const invalid: InvalidCase[] = [
  {
    name: 'a custom definition (management group scope) that no loaded custom definition has, matched by name',
    text: a3(`{
    "policyDefinitions": [{ "policyDefinitionId": |"/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/custom-deff"| }]
  }`),
    code: 'PS8010',
    options: withCatalog,
  },
  {
    name: "a custom definition whose file is there but did not parse: said so, with the file and the parser's words, not 'missing'",
    text: a3(`{
    "policyDefinitions": [{ "policyDefinitionId": |"/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/Deny-Broken"| }]
  }`),
    code: 'PS8010',
    options: { definitions: unreadable() },
    data: {
      messageId: 'unreadable',
      name: 'Deny-Broken',
      file: 'policyDefinitions/Deny-Broken.json',
      problem: 'Unexpected token } at line 9',
    },
    message: /looks to be in 'policyDefinitions\/Deny-Broken\.json', which could not be read \(Unexpected token \} at line 9\)/,
  },
];

/** A catalogue whose only custom definition file could not be read. */
function unreadable(): DefinitionCatalog {
  const catalog = new DefinitionCatalog();
  catalog.addUnreadable(['Deny-Broken'], 'policyDefinitions/Deny-Broken.json', 'Unexpected token } at line 9');
  return catalog;
}

run('unknown-custom-definition', {
  valid: [
    {
      name: "only a file that could not be read is known (a generator's template): another name is not said to be missing among 0 loaded",
      text: a3(`{
    "policyDefinitions": [{ "policyDefinitionId": "/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/Deploy_Heartbeat_Alert" }]
  }`),
      notCodes: ['PS8010'],
      options: { definitions: unreadable() },
    },
  ],
  invalid,
});
