// Documents the tests of the landing-zone library's default values share (test/rules/, PS9216-PS9217): a library
// of two assignment files (of tagging-set, test/support/ruleDocuments/consumers.ts, and of a set not known), and
// the default values file around the defaults a case writes.
import type { ValidateOptions } from '#service';
import { consumerCatalog, SET_ID_ELSEWHERE, UNKNOWN_SET_ID } from './consumers';

function libraryAssignment(name: string, id: string): string {
  return `{
  "type": "Microsoft.Authorization/policyAssignments",
  "apiVersion": "2024-04-01",
  "name": "${name}",
  "properties": { "policyDefinitionId": "${id}", "enforcementMode": "Default", "parameters": {} }
}`;
}

export const LIBRARY = [
  {
    uri: 'file:///lib/policy_assignments/Enforce-Tagging.alz_policy_assignment.json',
    text: libraryAssignment('Enforce-Tagging', SET_ID_ELSEWHERE),
  },
  { uri: 'file:///lib/policy_assignments/Other.alz_policy_assignment.json', text: libraryAssignment('Other', UNKNOWN_SET_ID) },
];

export function withLibrary(complete = true): ValidateOptions {
  return {
    uri: 'file:///lib/alz_policy_default_values.json',
    definitions: consumerCatalog(),
    libraryAssignments: { files: LIBRARY, complete },
  };
}

/** A default values file with these `policy_assignments` entries in one default. */
export function defaultValues(entries: string): string {
  return `{
  "$schema": "https://raw.githubusercontent.com/Azure/Azure-Landing-Zones-Library/main/schemas/default_policy_values.json",
  "defaults": [
    {
      "default_name": "a",
      "description": "A value.",
      "policy_assignments": [
        ${entries}
      ]
    }
  ]
}`;
}
