// PS9215 unknown-assignment-definition-version: the assignments it must pass (valid) and the ones it must report, with the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { DefinitionCatalog } from '#service';
import { assignment, epac, templateAssignment, SET_ID, SET_NAME, DEFINITION_ID } from '../support/ruleDocuments/consumers';

/** tagging-set at version 2.1.0 (its file says no other), a built-in set that lists 1.0.0 and 2.0.0, and a definition of 1.0.0 and 1.1.0. */
function catalog(): DefinitionCatalog {
  const c = new DefinitionCatalog();
  const members = [{ policyDefinitionReferenceId: 'a', policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/a1' }];
  c.addSetDocument({ name: SET_NAME, id: SET_ID, properties: { version: '2.1.0', policyDefinitions: members } }, 'sets/tagging-set.json');
  c.addSetDocument(
    {
      name: 'builtin-set',
      id: '/providers/Microsoft.Authorization/policySetDefinitions/builtin-set',
      properties: { version: '2.0.0', versions: ['2.0.0', '1.0.0'], policyDefinitions: members },
    },
    'sets/builtin-set.json',
  );
  c.addIndex([{ id: DEFINITION_ID, name: DEFINITION_ID.split('/').pop(), version: '1.1.0', versions: ['1.1.0', '1.0.0'], parameters: {} }]);
  return c;
}
const options = { definitions: catalog() };
const BUILTIN = '/providers/Microsoft.Authorization/policySetDefinitions/builtin-set';

const invalid: InvalidCase[] = [
  {
    name: 'a major the set does not have yet (only its latest version known)',
    text: assignment(`"definitionVersion": |"3.*.*"|`),
    code: 'PS9215',
    options,
    data: { value: '3.*.*', knownVersions: ['2.1.0'] },
    message: /tagging-set/,
  },
  {
    name: 'a minor newer than the set has',
    text: assignment(`"definitionVersion": |"2.2.*"|`),
    code: 'PS9215',
    options,
  },
  {
    name: 'a version the built-in set does not list',
    text: assignment(`"definitionVersion": |"3.*.*"|`, BUILTIN),
    code: 'PS9215',
    options,
    data: { knownVersions: ['2.0.0', '1.0.0'] },
  },
  {
    name: 'an older major than the listed ones',
    text: templateAssignment(`"definitionVersion": |"0.*.*"|`, BUILTIN),
    code: 'PS9215',
    options,
  },
  {
    name: 'a definition',
    text: assignment(`"definitionVersion": |"2.*.*"|`, DEFINITION_ID),
    code: 'PS9215',
    options,
  },
  {
    name: "the framework's tree: a node's version for the entries below",
    text: epac(`"definitionVersion": |"3.*.*"|,
  "children": [{ "nodeName": "a", "definitionEntry": { "policySetName": "${SET_NAME}" } }]`),
    code: 'PS9215',
    options,
  },
];

const valid: ValidCase[] = [
  { name: 'the major of the set', text: assignment(`"definitionVersion": "2.*.*"`), notCodes: ['PS9215'], options },
  {
    name: 'an older major of a set whose file holds only its latest version (it may exist in Azure)',
    text: assignment(`"definitionVersion": "1.*.*"`),
    notCodes: ['PS9215'],
    options,
  },
  { name: 'a listed version', text: assignment(`"definitionVersion": "1.0.*"`, BUILTIN), notCodes: ['PS9215'], options },
  { name: 'a version of the definition', text: assignment(`"definitionVersion": "1.0.0"`, DEFINITION_ID), notCodes: ['PS9215'], options },
  {
    name: 'an expression',
    text: templateAssignment(`"definitionVersion": "[parameters('version')]"`, BUILTIN),
    notCodes: ['PS9215'],
    options,
  },
  {
    name: 'a set that is not known',
    text: assignment(
      `"definitionVersion": "9.*.*"`,
      '/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policySetDefinitions/not-here',
    ),
    notCodes: ['PS9215'],
    options,
  },
  {
    name: "the framework's entry asks its own version over its node's",
    text: epac(`"definitionVersion": "3.*.*",
  "children": [{ "nodeName": "a", "definitionEntry": { "policySetName": "${SET_NAME}", "definitionVersion": "2.*.*" } }]`),
    notCodes: ['PS9215'],
    options,
  },
];

run('unknown-assignment-definition-version', { valid, invalid });
