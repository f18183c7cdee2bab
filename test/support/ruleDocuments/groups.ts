// Documents the groups rules' tests share (test/rules/).
import { defId, a3 } from '../ruleTester';
import { DefinitionCatalog } from '#service';

export const D1 = defId('d1');

export const GROUPED = (groupNames: string) =>
  a3(`{
    "policyDefinitionGroups": [
      { "name": "Network" },
      { "name": "Storage" }
    ],
    "policyDefinitions": [
      {
        "policyDefinitionId": "${D1}",
        "groupNames": ${groupNames}
      }
    ]
  }`);

/** A catalogue that knows one set, `source-set`, declaring the group `Imported`. */
export function catalogWithSourceSet(): DefinitionCatalog {
  const catalog = new DefinitionCatalog();
  catalog.addSet({ name: 'source-set', groups: ['Imported'] });
  return catalog;
}

/** A set importing the groups of `source-set` and declaring `Own`, whose reference uses `groupNames`. */
export const IMPORTING = (groupNames: string) =>
  a3(`{
    "importPolicyDefinitionGroups": ["source-set"],
    "policyDefinitionGroups": [{ "name": "Own" }],
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": ${groupNames} }]
  }`);

/** 25 declared groups, G0 to G24, and a reference using `groupNames`. */
export const MANY_GROUPS = (groupNames: string) =>
  a3(`{
    "policyDefinitionGroups": [${Array.from({ length: 25 }, (_, i) => `{ "name": "G${i}" }`).join(', ')}],
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": ${groupNames} }]
  }`);
