// Documents the parameter file rules' tests share (test/rules/, PS9210-PS9214): the policy-as-code framework's
// assignment tree that names `tags.csv` and assigns tagging-set (test/support/ruleDocuments/consumers.ts:
// members requireTag, which assigns the definition 'a1', and inheritTag, 'a2'), and the options that check a
// CSV text as that file.
import type { ValidateOptions } from '#service';
import { consumerCatalog, SET_NAME, UNKNOWN_SET_ID } from './consumers';

export const CSV_URI = 'file:///repo/policyAssignments/tags.csv';
export const ASSIGNMENT_URI = 'file:///repo/policyAssignments/tags.jsonc';

/** A tree whose root names `file` and assigns `entry`, with leaves selecting `prod` and `nonprod`. */
export function epacTree(entry = `{ "policySetName": "${SET_NAME}" }`, file = 'tags.csv'): string {
  return `{
  "nodeName": "/tags/",
  "parameterFile": "${file}",
  "definitionEntry": ${entry},
  "children": [
    { "nodeName": "prod", "parameterSelector": "prod", "assignment": { "name": "p", "displayName": "P" }, "scope": { "t": ["/"] } },
    { "nodeName": "nonprod", "parameterSelector": "nonprod", "assignment": { "name": "n", "displayName": "N" }, "scope": { "t": ["/"] } }
  ]
}`;
}

/** The options that check a CSV text as `tags.csv`, named by these assignment files. */
export function namedBy(...assignments: string[]): ValidateOptions {
  return {
    uri: CSV_URI,
    definitions: consumerCatalog(),
    parameterFile: { assignments: assignments.map((text, i) => ({ uri: i ? `${ASSIGNMENT_URI}.${i}` : ASSIGNMENT_URI, text })) },
  };
}

export const withTree = namedBy(epacTree());
export const withUnknownSet = namedBy(epacTree(`{ "policySetId": "${UNKNOWN_SET_ID}" }`));
export const HEADER = 'name,referencePath,displayName,prodEffect,prodParameters,nonprodEffect,nonprodParameters';
