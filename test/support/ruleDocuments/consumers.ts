// Documents the consumer rules' tests share (test/rules/, PS92xx): a catalogue that knows one custom set and one
// custom definition, and builders of the consumer shapes around the parts a case changes.
import { DefinitionCatalog } from '#service';

export const SET_NAME = 'tagging-set';
export const SET_ID = `/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policySetDefinitions/${SET_NAME}`;
/** The same set named at another scope (a placeholder): custom sets are found by name at any scope. */
export const SET_ID_ELSEWHERE = `/providers/Microsoft.Management/managementGroups/\${root}/providers/Microsoft.Authorization/policySetDefinitions/${SET_NAME}`;
export const DEFINITION_ID = '/providers/Microsoft.Authorization/policyDefinitions/00000000-0000-0000-0000-0000000000c1';
export const UNKNOWN_SET_ID =
  '/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policySetDefinitions/not-here';

/**
 * tagging-set: tagName (String, required), effect (String, Audit/Deny/Disabled, default Audit),
 * excludedResourceGroups (Array, default []), maxAgeDays (Integer, default 30); members requireTag and inheritTag.
 * The definition 00…c1: effect (String, default Audit).
 */
export function consumerCatalog(): DefinitionCatalog {
  const catalog = new DefinitionCatalog();
  catalog.addSetDocument(
    {
      name: SET_NAME,
      id: SET_ID,
      properties: {
        parameters: {
          tagName: { type: 'String' },
          effect: { type: 'String', allowedValues: ['Audit', 'Deny', 'Disabled'], defaultValue: 'Audit' },
          excludedResourceGroups: { type: 'Array', defaultValue: [] },
          maxAgeDays: { type: 'Integer', defaultValue: 30 },
        },
        policyDefinitions: [
          { policyDefinitionReferenceId: 'requireTag', policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/a1' },
          { policyDefinitionReferenceId: 'inheritTag', policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/a2' },
        ],
      },
    },
    'sets/tagging-set.json',
  );
  catalog.addIndex([
    {
      id: DEFINITION_ID,
      name: DEFINITION_ID.split('/').pop(),
      version: '1.0.0',
      parameters: { effect: { type: 'String', defaultValue: 'Audit' } },
    },
  ]);
  return catalog;
}

export const withSets = { definitions: consumerCatalog() };

/** An assignment resource of `id` with the given `properties` members after its policyDefinitionId. */
export function assignment(members: string, id = SET_ID): string {
  return `{
  "type": "Microsoft.Authorization/policyAssignments",
  "apiVersion": "2024-04-01",
  "name": "tags",
  "properties": {
    "policyDefinitionId": "${id}"${members ? `,\n    ${members}` : ''}
  }
}`;
}

/** An ARM template holding one assignment of the set with the given `properties` members, and these variables. */
export function templateAssignment(members: string, id = SET_ID, variables = '{}'): string {
  return `{
  "$schema": "https://schema.management.azure.com/schemas/2019-08-01/managementGroupDeploymentTemplate.json#",
  "contentVersion": "1.0.0.0",
  "variables": ${variables},
  "resources": [
    {
      "type": "Microsoft.Authorization/policyAssignments",
      "apiVersion": "2024-04-01",
      "name": "tags",
      "properties": {
        "policyDefinitionId": "${id}"${members ? `,\n        ${members}` : ''}
      }
    }
  ]
}`;
}

/** A policy-as-code framework assignment file whose root node has the given members. */
export function epac(members: string): string {
  return `{
  "$schema": "https://raw.githubusercontent.com/Azure/enterprise-azure-policy-as-code/main/Schemas/policy-assignment-schema.json",
  "nodeName": "/Tags/",
  ${members}
}`;
}
