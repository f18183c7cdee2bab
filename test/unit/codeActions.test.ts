// Quick fixes: each fix applied to a small document with its defect, then the document re-validated.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  parsePolicyDocument,
  validateDocument,
  DefinitionCatalog,
  cloudOfPath,
  type ValidateOptions,
  type PolicyDocument,
  type PolicySetDiagnostic,
} from '#service';
import { getCodeActions } from '#features';
import type { CodeAction, TextEdit } from 'vscode-languageserver-types';
import { findNodeAtOffset } from 'jsonc-parser';
import { a1, a3, template, defId, DEF, catalog } from '../support/ruleTester';
import { applyTextEdits, editsOf } from '../support/textEdits';
import { CORPORA, REPO_ROOT, listJsonFiles } from '../support/corpus';

const URI = 'file:///work/set.json';
const D1 = defId('d1');
const D2 = defId('d2');

interface FixCase {
  name: string;
  text: string;
  code: string;
  /** The title of the action to apply. */
  title: RegExp;
  /** Which diagnostic of the code to ask about (default the first). */
  nth?: number;
  /** Ask with every diagnostic of the code at once (as a client does for a range that covers them). */
  all?: boolean;
  /** The action fixes every diagnostic of its code in the document, not only those asked about. */
  fixesAll?: boolean;
  /** Whether the applied action is the preferred one (default true). */
  preferred?: boolean;
  /** How many actions the request returns in all (default 1). */
  actions?: number;
  options?: ValidateOptions;
  crlf?: boolean;
  tabs?: boolean;
  /** Four spaces instead of two for each level of indentation. */
  wide?: boolean;
  /** Text the fixed document contains (written with LF and two-space indentation, converted like the document). */
  contains?: string[];
  /** Text the fixed document no longer contains. */
  lacks?: string[];
  /** More checks of the fixed document's value. */
  check?: (value: Record<string, unknown>) => void;
}

const withCatalog: ValidateOptions = { definitions: catalog() };

function convert(text: string, c: Pick<FixCase, 'crlf' | 'tabs' | 'wide'>): string {
  let result = text;
  if (c.tabs) result = result.replace(/^(?: {2})+/gm, (m) => '\t'.repeat(m.length / 2));
  if (c.wide) result = result.replace(/^(?: {2})+/gm, (m) => m + m);
  if (c.crlf) result = result.replace(/\r?\n/g, '\r\n');
  return result;
}

const propertiesOf = (value: Record<string, unknown>) => value['properties'] as Record<string, unknown>;

const GROUPS = (
  groupNames: string,
  groups = `[
    { "name": "Network" },
    { "name": "Storage" }
  ]`,
) =>
  a3(`{
  "displayName": "Set",
  "policyDefinitionGroups": ${groups},
  "policyDefinitions": [
    {
      "policyDefinitionId": "${D1}",
      "groupNames": ${groupNames}
    },
    {
      "policyDefinitionId": "${D2}",
      "groupNames": ["Network", "Compute"]
    }
  ]
}`);

const NO_PARAMETERS = (value: string, id = D1) =>
  a3(`{
  "displayName": "Set",
  "policyDefinitions": [
    {
      "policyDefinitionId": "${id}",
      "parameters": ${value}
    }
  ]
}`);

const PARAMETERS = (parameters: string, value: string) =>
  a3(`{
  "displayName": "Set",
  "parameters": ${parameters},
  "policyDefinitions": [
    {
      "policyDefinitionId": "${D1}",
      "parameters": ${value}
    }
  ]
}`);

const cases: FixCase[] = [
  // ---- PS5001 declare a missing group
  {
    name: 'declare a group: every use of the name is fixed by one action, written like its neighbours',
    text: GROUPS('["Compute"]'),
    code: 'PS5001',
    all: true,
    title: /^Declare group 'Compute'/,
    contains: [`    { "name": "Storage" },\n    { "name": "Compute" }\n  ],`],
  },
  {
    name: 'declare a group in a tab-indented CRLF document',
    text: GROUPS(
      '["Compute"]',
      `[
    {
      "name": "Network"
    },
    {
      "name": "Storage"
    }
  ]`,
    ),
    code: 'PS5001',
    crlf: true,
    tabs: true,
    all: true,
    title: /^Declare group 'Compute'/,
    contains: [`    {\n      "name": "Storage"\n    },\n    {\n      "name": "Compute"\n    }\n  ],`],
  },
  {
    name: 'declare a group where there is no policyDefinitionGroups: the array is created',
    text: a3(`{
  "displayName": "Set",
  "policyDefinitions": [
    { "policyDefinitionId": "${D1}", "groupNames": ["Network"] }
  ]
}`),
    code: 'PS5001',
    title: /^Declare group 'Network'/,
    contains: [`  ],\n  "policyDefinitionGroups": [\n    {\n      "name": "Network"\n    }\n  ]\n}`],
    check: (v) => assert.deepEqual(propertiesOf(v)['policyDefinitionGroups'], [{ name: 'Network' }]),
  },
  {
    name: 'declare a group in an empty policyDefinitionGroups, CRLF',
    text: a1(`{
    "policyDefinitionGroups": [],
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": ["Network"] }]
  }`),
    code: 'PS5001',
    crlf: true,
    title: /^Declare group 'Network'/,
    contains: [`"policyDefinitionGroups": [\n      {\n        "name": "Network"\n      }\n    ],`],
  },
  {
    name: 'a misspelt group: changing it to the close match is preferred, declaring it is offered too',
    text: GROUPS('["Storag"]'),
    code: 'PS5001',
    title: /^Change to 'Storage'$/,
    actions: 2,
    check: (v) => assert.deepEqual((propertiesOf(v)['policyDefinitions'] as Array<Record<string, unknown>>)[0]['groupNames'], ['Storage']),
  },
  {
    name: 'a misspelt group declared instead, not preferred',
    text: GROUPS('["Storag"]'),
    code: 'PS5001',
    title: /^Declare group 'Storag'/,
    actions: 2,
    preferred: false,
  },
  {
    name: 'declare a group in a one-line policyDefinitionGroups',
    text: GROUPS('["Compute"]', `[{ "name": "Network" }, { "name": "Storage" }]`),
    code: 'PS5001',
    all: true,
    title: /^Declare group 'Compute'/,
    contains: [`[{ "name": "Network" }, { "name": "Storage" }, { "name": "Compute" }]`],
  },
  {
    name: 'declare a group of a set in an ARM template',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "policyDefinitionGroups": [
          { "name": "Network" }
        ],
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": ["Network", "Compute"] }]
      }
    }`),
    code: 'PS5001',
    title: /^Declare group 'Compute'/,
    contains: [`          { "name": "Network" },\n          { "name": "Compute" }\n        ],`],
  },

  // ---- PS7001 declare a missing parameter
  {
    name: 'declare a parameter where there are no parameters: created before policyDefinitions, String by default',
    text: NO_PARAMETERS(`{ "effect": { "value": "[parameters('effect')]" } }`),
    code: 'PS7001',
    title: /^Declare parameter 'effect' \(String\)$/,
    contains: [
      `  "displayName": "Set",\n  "parameters": {\n    "effect": {\n      "type": "String",\n      "metadata": {\n        "displayName": "Effect"\n      }\n    }\n  },\n  "policyDefinitions": [`,
    ],
  },
  {
    name: 'declare a parameter where there are no parameters, in a document indented by four spaces',
    text: NO_PARAMETERS(`{ "effect": { "value": "[parameters('effect')]" } }`),
    code: 'PS7001',
    wide: true,
    title: /^Declare parameter 'effect' \(String\)$/,
    contains: [
      `  "displayName": "Set",\n  "parameters": {\n    "effect": {\n      "type": "String",\n      "metadata": {\n        "displayName": "Effect"\n      }\n    }\n  },\n  "policyDefinitions": [`,
    ],
  },
  {
    name: "declare a parameter with the type of the known definition's parameter it is passed to",
    text: NO_PARAMETERS(`{ "listOfLocations": { "value": "[parameters('allowedLocations')]" } }`, DEF.main),
    code: 'PS7001',
    options: withCatalog,
    title: /^Declare parameter 'allowedLocations' \(Array\)$/,
    check: (v) =>
      assert.deepEqual(propertiesOf(v)['parameters'], {
        allowedLocations: { type: 'Array', metadata: { displayName: 'Allowed locations' } },
      }),
  },
  {
    name: 'declare a parameter used inside a larger expression: String',
    text: NO_PARAMETERS(`{ "listOfLocations": { "value": "[split(parameters('locations'), ',')]" } }`, DEF.main),
    code: 'PS7001',
    options: withCatalog,
    title: /^Declare parameter 'locations' \(String\)$/,
  },
  {
    name: 'declare a parameter among existing ones, tab-indented CRLF, every use fixed once',
    text: PARAMETERS(
      `{
    "effect": {
      "type": "String"
    }
  }`,
      `{ "effect": { "value": "[parameters('effect')]" }, "a": { "value": "[parameters('missing')]" }, "b": { "value": "[concat(parameters('missing'), 'x')]" } }`,
    ),
    code: 'PS7001',
    crlf: true,
    tabs: true,
    all: true,
    title: /^Declare parameter 'missing' \(String\)$/,
    contains: [
      `    "effect": {\n      "type": "String"\n    },\n    "missing": {\n      "type": "String",\n      "metadata": {\n        "displayName": "Missing"\n      }\n    }\n  },`,
    ],
  },
  {
    name: 'declare a parameter in an empty parameters object',
    text: PARAMETERS(`{}`, `{ "effect": { "value": "[parameters('effect')]" } }`),
    code: 'PS7001',
    title: /^Declare parameter 'effect'/,
    check: (v) => assert.deepEqual(Object.keys(propertiesOf(v)['parameters'] as object), ['effect']),
  },
  {
    name: 'a misspelt parameter reference: change it to the close match',
    text: PARAMETERS(`{ "effect": { "type": "String" } }`, `{ "effect": { "value": "[parameters('efect')]" } }`),
    code: 'PS7001',
    title: /^Change to 'effect'$/,
    actions: 2,
    contains: [`"[parameters('effect')]"`],
  },
  {
    name: "declare a parameter of a set in an ARM template ('[[' escapes)",
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "parameters": {
          "effect": { "type": "String" }
        },
        "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}", "parameters": { "effect": { "value": "[[parameters('effect')]" }, "listOfLocations": { "value": "[[parameters('where')]" } } }]
      }
    }`),
    code: 'PS7001',
    options: withCatalog,
    title: /^Declare parameter 'where' \(Array\)$/,
    contains: [
      `          "effect": { "type": "String" },\n          "where": { "type": "Array", "metadata": { "displayName": "Where" } }\n        },`,
    ],
  },

  // ---- Casing
  {
    name: 'a parameter type in another casing',
    text: PARAMETERS(`{ "effect": { "type": "string" } }`, `{ "effect": { "value": "[parameters('effect')]" } }`),
    code: 'PS2006',
    title: /^Change to 'String'$/,
    contains: [`{ "effect": { "type": "String" } }`],
  },
  {
    name: 'every parameter type in another casing, in one action',
    text: PARAMETERS(
      `{ "effect": { "type": "string" }, "where": { "type": "ARRAY" } }`,
      `{ "effect": { "value": "[parameters('effect')]" }, "w": { "value": "[parameters('where')]" } }`,
    ),
    code: 'PS2006',
    nth: 1,
    title: /^Write every parameter type in its canonical casing \(2 in this document\)$/,
    actions: 2,
    preferred: false,
    fixesAll: true,
    contains: [`{ "effect": { "type": "String" }, "where": { "type": "Array" } }`],
  },
  {
    name: 'every parameter reference in another casing, in one action',
    text: PARAMETERS(
      `{ "effect": { "type": "String" }, "it's": { "type": "String" } }`,
      `{ "effect": { "value": "[parameters('EFFECT')]" }, "b": { "value": "[concat(parameters('Effect'), parameters('IT''S'))]" } }`,
    ),
    code: 'PS7002',
    title: /^Write every parameter reference as declared \(3 in this document\)$/,
    actions: 2,
    preferred: false,
    fixesAll: true,
    contains: [`"[parameters('effect')]"`, `"[concat(parameters('effect'), parameters('it''s'))]"`],
  },
  {
    name: 'every group name in another casing, in one action',
    text: GROUPS('["network", "NETWORK"]', `[{ "name": "Network" }, { "name": "Compute" }]`),
    code: 'PS5004',
    title: /^Write every group name as declared \(2 in this document\)$/,
    actions: 2,
    preferred: false,
    fixesAll: true,
    contains: [`"groupNames": ["Network", "Network"]`],
  },
  {
    name: 'a parameter reference in another casing',
    text: PARAMETERS(`{ "effect": { "type": "String" } }`, `{ "effect": { "value": "[parameters('Effect')]" } }`),
    code: 'PS7002',
    title: /^Change to 'effect' as declared$/,
    contains: [`"[parameters('effect')]"`],
  },
  {
    name: 'a group name in another casing',
    text: GROUPS('["network"]', `[{ "name": "Network" }, { "name": "Compute" }]`),
    code: 'PS5004',
    title: /^Change to 'Network' as declared$/,
    contains: [`"groupNames": ["Network"]`],
  },
  {
    name: 'a property name in another casing',
    text: a3(`{
  "displayName": "Set",
  "Version": "1.0.0",
  "policyDefinitions": [{ "policyDefinitionId": "${D1}" }]
}`),
    code: 'PS2005',
    title: /^Rename to 'version'$/,
    contains: [`  "version": "1.0.0",`],
  },
  {
    name: 'a parameter of a definition in another casing',
    text: NO_PARAMETERS(`{ "membersToInclude": { "value": "a" } }`, DEF.casing),
    code: 'PS8008',
    options: withCatalog,
    title: /^Rename to 'MembersToInclude'/,
    contains: [`{ "MembersToInclude": { "value": "a" } }`],
  },

  {
    name: 'an unknown property with a close match is renamed to it',
    text: a3(`{
  "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupName": [] }]
}`),
    code: 'PS2004',
    title: /^Rename to 'groupNames'$/,
    contains: [`"groupNames": []`],
  },
  {
    name: 'a parameter the definition does not have, with a close match, is renamed to it',
    text: NO_PARAMETERS(`{ "efect": { "value": "Audit" }, "listOfLocations": { "value": [] } }`, DEF.main),
    code: 'PS8001',
    options: withCatalog,
    title: /^Rename to 'effect'$/,
    contains: [`{ "effect": { "value": "Audit" },`],
  },

  // ---- References
  {
    name: 'a duplicate policyDefinitionReferenceId gets the first free suffix',
    text: a3(`{
  "policyDefinitions": [
    { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "ref" },
    { "policyDefinitionId": "${D2}", "policyDefinitionReferenceId": "ref_2" },
    { "policyDefinitionId": "${D2}", "policyDefinitionReferenceId": "Ref" }
  ]
}`),
    code: 'PS4001',
    title: /^Change to 'Ref_3'$/,
    contains: [`"policyDefinitionReferenceId": "Ref_3" }`],
  },
  {
    name: 'a missing policyDefinitionReferenceId is added after the policyDefinitionId',
    text: a3(`{
  "policyDefinitions": [
    {
      "policyDefinitionId": "${D1}",
      "policyDefinitionReferenceId": "d1"
    },
    {
      "policyDefinitionId": "${D1}",
      "parameters": {}
    }
  ]
}`),
    code: 'PS4002',
    title: /^Add policyDefinitionReferenceId 'd1_2'$/,
    contains: [`      "policyDefinitionId": "${D1}",\n      "policyDefinitionReferenceId": "d1_2",\n      "parameters": {}`],
  },
  {
    name: 'a missing policyDefinitionReferenceId in a one-line reference, CRLF',
    text: a3(`{
  "policyDefinitions": [
    { "policyDefinitionId": "${D1}" },
    { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "other" }
  ]
}`),
    code: 'PS4002',
    crlf: true,
    title: /^Add policyDefinitionReferenceId 'd1'$/,
    contains: [`{ "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "d1" },`],
  },

  // ---- Versions
  {
    name: 'remove a response-only property (the last of its object)',
    text: a1(`{
    "policyDefinitions": [
      {
        "policyDefinitionId": "${D1}",
        "definitionVersion": "1.*.*",
        "effectiveDefinitionVersion": "1.2.0"
      }
    ]
  }`),
    code: 'PS3004',
    title: /^Remove 'effectiveDefinitionVersion'$/,
    contains: [`        "definitionVersion": "1.*.*"\n      }`],
  },
  {
    name: 'remove a response-only property (the first of its object), tab-indented',
    text: a1(`{
    "policyDefinitions": [
      {
        "latestDefinitionVersion": "1.2.0",
        "policyDefinitionId": "${D1}"
      }
    ]
  }`),
    code: 'PS3004',
    tabs: true,
    title: /^Remove 'latestDefinitionVersion'$/,
    contains: [`      {\n        "policyDefinitionId": "${D1}"\n      }`],
  },
  {
    name: "a version resource's name '1.0' becomes '1.0.0'",
    text: a1(`{ "policyDefinitions": [{ "policyDefinitionId": "${D1}" }] }`, '"1.0"'),
    code: 'PS3001',
    title: /^Change to '1\.0\.0'$/,
    contains: [`"name": "1.0.0",`],
  },
  {
    name: "properties.version 'v1.2.3' becomes '1.2.3'",
    text: a1(`{ "version": "v1.2.3", "policyDefinitions": [{ "policyDefinitionId": "${D1}" }] }`),
    code: 'PS3002',
    title: /^Change to '1\.2\.3'$/,
    contains: [`"version": "1.2.3"`],
  },
  {
    name: "a built-in set's version '1-preview' keeps its suffix",
    text: a3(`{ "version": "1-preview", "policyDefinitions": [{ "policyDefinitionId": "${D1}" }] }`),
    code: 'PS3002',
    title: /^Change to '1\.0\.0-preview'$/,
  },
  {
    name: 'a version with a fourth component is shortened, but that is not the preferred fix',
    text: a1(`{ "version": "1.2.3.4", "policyDefinitions": [{ "policyDefinitionId": "${D1}" }] }`),
    code: 'PS3002',
    title: /^Change to '1\.2\.3'$/,
    preferred: false,
  },
  {
    name: "definitionVersion '1.0' becomes '1.0.0'",
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "definitionVersion": "1.0" }] }`),
    code: 'PS3003',
    title: /^Change to '1\.0\.0'$/,
  },
  {
    name: "definitionVersion '2' and '1.*' pin the major: '2.*.*'",
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${D1}", "definitionVersion": "v2" }] }`),
    code: 'PS3003',
    title: /^Change to '2\.\*\.\*'$/,
  },

  // ---- Unused
  {
    name: 'remove an unused parameter (the last one)',
    text: PARAMETERS(
      `{
    "effect": {
      "type": "String"
    },
    "unused": {
      "type": "String"
    }
  }`,
      `{ "effect": { "value": "[parameters('effect')]" } }`,
    ),
    code: 'PS7003',
    title: /^Remove unused parameter 'unused'$/,
    contains: [`  "parameters": {\n    "effect": {\n      "type": "String"\n    }\n  },`],
  },
  {
    name: 'remove an unused parameter (the first one), CRLF',
    text: PARAMETERS(
      `{
    "unused": {
      "type": "String"
    },
    "effect": {
      "type": "String"
    }
  }`,
      `{ "effect": { "value": "[parameters('effect')]" } }`,
    ),
    code: 'PS7003',
    crlf: true,
    title: /^Remove unused parameter 'unused'$/,
    contains: [`  "parameters": {\n    "effect": {\n      "type": "String"\n    }\n  },`],
  },
  {
    name: 'remove an unused parameter (in the middle, one line)',
    text: PARAMETERS(
      `{ "a": { "type": "String" }, "unused": { "type": "String" }, "b": { "type": "String" } }`,
      `{ "a": { "value": "[parameters('a')]" }, "b": { "value": "[parameters('b')]" } }`,
    ),
    code: 'PS7003',
    title: /^Remove unused parameter 'unused'$/,
    contains: [`"parameters": { "a": { "type": "String" }, "b": { "type": "String" } },`],
  },
  {
    name: 'remove the only parameter',
    text: PARAMETERS(`{ "unused": { "type": "String" } }`, `{}`),
    code: 'PS7003',
    title: /^Remove unused parameter 'unused'$/,
    contains: [`"parameters": {},`],
  },
  {
    name: 'remove a repeated group declaration, the same as the first',
    text: GROUPS('["Network"]', `[{ "name": "Network" }, { "name": "Compute" }, { "name": "Network" }]`),
    code: 'PS5002',
    title: /^Remove this repeated declaration of group 'Network'$/,
    contains: [`[{ "name": "Network" }, { "name": "Compute" }],`],
  },
  {
    name: 'remove a repeated group declaration that says more than the first: not the preferred fix',
    text: GROUPS(
      '["Network"]',
      `[
    { "name": "Network" },
    { "name": "Compute" },
    { "name": "network", "displayName": "Networking" }
  ]`,
    ),
    code: 'PS5002',
    title: /^Remove this repeated declaration of group 'network'$/,
    preferred: false,
    contains: [`    { "name": "Compute" }\n  ],`],
  },
  {
    name: 'remove an unused group (the last of a one-line list)',
    text: GROUPS('["Network"]', `[{ "name": "Network" }, { "name": "Compute" }, { "name": "Unused" }]`),
    code: 'PS5003',
    title: /^Remove unused group 'Unused'$/,
    contains: [`[{ "name": "Network" }, { "name": "Compute" }],`],
  },
  {
    name: 'remove an unused group (the first of a list, tab-indented CRLF)',
    text: GROUPS(
      '["Network"]',
      `[
    {
      "name": "Unused"
    },
    { "name": "Network" },
    { "name": "Compute" }
  ]`,
    ),
    code: 'PS5003',
    crlf: true,
    tabs: true,
    title: /^Remove unused group 'Unused'$/,
    contains: [`  "policyDefinitionGroups": [\n    { "name": "Network" },`],
  },
];

function errorCounts(diagnostics: PolicySetDiagnostic[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of diagnostics) if (d.severity === 1) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  return counts;
}

function describeDiagnostics(diagnostics: PolicySetDiagnostic[]): string {
  return diagnostics.map((d) => `  ${d.code} ${d.range.start.line}:${d.range.start.character} ${d.message}`).join('\n') || '  (none)';
}

describe('code actions: each quick fix removes its diagnostic and keeps the document valid', () => {
  const names = new Set<string>();
  for (const c of cases) {
    assert.ok(!names.has(c.name), `duplicate case ${c.name}`);
    names.add(c.name);
    test(`${c.code} ${c.name}`, () => {
      const text = convert(c.text, c);
      JSON.parse(text);
      const document = parsePolicyDocument(text);
      const before = validateDocument(document, c.options).diagnostics;
      const ofCode = before.filter((d) => d.code === c.code);
      assert.ok(ofCode.length > (c.nth ?? 0), `no ${c.code} in the document:\n${describeDiagnostics(before)}`);
      const target = ofCode[c.nth ?? 0];
      const asked = c.all ? ofCode : [target];
      const range = c.all ? { start: ofCode[0].range.start, end: ofCode[ofCode.length - 1].range.end } : target.range;
      const actions = getCodeActions(document, URI, asked, range, c.options);
      assert.equal(actions.length, c.actions ?? 1, `actions: ${actions.map((a) => a.title).join(' | ')}`);
      const action = actions.find((a) => c.title.test(a.title));
      assert.ok(action, `no action titled ${c.title}: ${actions.map((a) => a.title).join(' | ')}`);
      assert.equal(action.kind, 'quickfix');
      assert.equal(action.isPreferred ?? false, c.preferred ?? true, 'isPreferred');
      assert.ok(action.diagnostics?.includes(target), 'the action names the diagnostic it fixes');
      if (c.all) assert.equal(action.diagnostics?.length, ofCode.length, 'one action fixes every diagnostic asked about');

      const fixed = applyTextEdits(text, editsOf(action, URI));
      let value: Record<string, unknown>;
      assert.doesNotThrow(() => (value = JSON.parse(fixed)), `the fixed document must parse:\n${fixed}`);
      if (c.crlf) assert.doesNotMatch(fixed, /[^\r]\n/, 'only CRLF line endings');
      if (c.tabs) assert.doesNotMatch(fixed, /^ +\S/m, 'indented with tabs only');
      if (c.wide) assert.doesNotMatch(fixed, /^(?: {4})* {1,3}\S/m, 'indented by four spaces');
      for (const snippet of c.contains ?? [])
        assert.ok(fixed.includes(convert(snippet, c)), `the fixed document must contain:\n${snippet}\n---- it is:\n${fixed}`);
      for (const snippet of c.lacks ?? [])
        assert.ok(!fixed.includes(convert(snippet, c)), `the fixed document must not contain:\n${snippet}`);
      c.check?.(value!);

      const after = validateDocument(parsePolicyDocument(fixed), c.options).diagnostics;
      const remaining = after.filter((d) => d.code === c.code).length;
      assert.equal(
        remaining,
        c.fixesAll ? 0 : ofCode.length - action.diagnostics!.length,
        `${c.code} left after the fix:\n${describeDiagnostics(after)}`,
      );
      const errorsBefore = errorCounts(before);
      for (const [code, count] of errorCounts(after)) {
        assert.ok(count <= (errorsBefore.get(code) ?? 0), `new ${code} errors after the fix:\n${describeDiagnostics(after)}\n${fixed}`);
      }
    });
  }
});

describe('code actions: what gets no fix', () => {
  const text = GROUPS('["Compute"]');
  const document = parsePolicyDocument(text);
  const diagnostics = validateDocument(document).diagnostics;
  const undefinedGroup = diagnostics.find((d) => d.code === 'PS5001')!;

  test('a stale diagnostic (its range no longer holds what it was about)', () => {
    const moved = { ...undefinedGroup, range: { start: { line: 1, character: 2 }, end: { line: 1, character: 6 } } };
    assert.deepEqual(getCodeActions(document, URI, [moved], moved.range), []);
  });

  test('a diagnostic of another source, or with a numeric code', () => {
    assert.deepEqual(getCodeActions(document, URI, [{ ...undefinedGroup, source: 'json' }], undefinedGroup.range), []);
    assert.deepEqual(getCodeActions(document, URI, [{ ...undefinedGroup, code: 5001 }], undefinedGroup.range), []);
  });

  test('a diagnostic outside the range asked about', () => {
    const elsewhere = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    assert.deepEqual(getCodeActions(document, URI, [undefinedGroup], elsewhere), []);
  });

  test('a diagnostic without data (a client that drops it) still gets the fixes the model knows', () => {
    const bare: PolicySetDiagnostic = { ...undefinedGroup, data: undefined as never };
    const actions = getCodeActions(document, URI, [bare], bare.range);
    assert.deepEqual(
      actions.map((a) => a.title),
      ["Declare group 'Compute' in policyDefinitionGroups"],
    );
    const typeText = PARAMETERS(`{ "effect": { "type": "string" } }`, `{ "effect": { "value": "[parameters('effect')]" } }`);
    const typeDocument = parsePolicyDocument(typeText);
    const casing = validateDocument(typeDocument).diagnostics.find((d) => d.code === 'PS2006')!;
    assert.deepEqual(
      getCodeActions(typeDocument, URI, [{ ...casing, data: undefined as never }], casing.range).map((a) => a.title),
      ["Change to 'String'"],
    );
  });

  test('a property renamed onto a key its object already has', () => {
    const both = a3(`{ "version": "1.0.0", "Version": "1.0.0", "policyDefinitions": [{ "policyDefinitionId": "${D1}" }] }`);
    const doc = parsePolicyDocument(both);
    const casing = validateDocument(doc).diagnostics.filter((d) => d.code === 'PS2005');
    assert.equal(casing.length, 1);
    assert.deepEqual(getCodeActions(doc, URI, casing, casing[0].range), []);
  });

  test('diagnostics of an earlier version, asked about on randomly edited text: no throw, and edits that apply', () => {
    const source = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'mistakes', 'contoso-baseline-version.json'), 'utf8');
    const stale = validateDocument(parsePolicyDocument(source)).diagnostics;
    assert.ok(stale.length > 5);
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    let offered = 0;
    for (let i = 0; i < 300; i++) {
      const at = random(source.length);
      const edited =
        i % 3 === 0
          ? source.slice(0, at)
          : i % 3 === 1
            ? source.slice(0, at) + source.slice(at + random(40))
            : source.slice(0, at) + '"x", ' + source.slice(at);
      const doc = parsePolicyDocument(edited);
      const whole = { start: { line: 0, character: 0 }, end: { line: 100000, character: 0 } };
      const actions = getCodeActions(doc, URI, stale, whole);
      for (const action of actions) applyTextEdits(edited, editsOf(action, URI));
      offered += actions.length;
    }
    assert.ok(offered > 0, 'some fixes still match the edited documents');
  });

  test('the same missing group in two sets of a template: one declaration in each set, not one for both', () => {
    const resource = (name: string) => `    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "${name}",
      "properties": {
        "policyDefinitionGroups": [{ "name": "Network" }],
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": ["Network", "Compute"] }]
      }
    }`;
    const twoSets = template(`${resource('one')},\n${resource('two')}`);
    const doc = parsePolicyDocument(twoSets);
    const found = validateDocument(doc).diagnostics.filter((d) => d.code === 'PS5001');
    assert.equal(found.length, 2);
    const actions = getCodeActions(doc, URI, found, { start: found[0].range.start, end: found[1].range.end });
    assert.equal(actions.length, 2);
    let fixed = twoSets;
    // Applied one after the other, as a person would.
    for (const diagnostic of [found[1], found[0]]) {
      const action = actions.find((a) => a.diagnostics?.[0] === diagnostic)!;
      fixed = applyTextEdits(fixed, editsOf(action, URI));
    }
    const resources = (JSON.parse(fixed) as { resources: Array<{ properties: { policyDefinitionGroups: unknown } }> }).resources;
    for (const r of resources) assert.deepEqual(r.properties.policyDefinitionGroups, [{ name: 'Network' }, { name: 'Compute' }]);
    assert.equal(validateDocument(parsePolicyDocument(fixed)).diagnostics.filter((d) => d.code === 'PS5001').length, 0);
  });

  test('a document with a syntax error still gets fixes that parse as well as before', () => {
    const broken = text.replace('"displayName": "Set",', '"displayName": "Set",,');
    const doc = parsePolicyDocument(broken);
    const found = validateDocument(doc).diagnostics.filter((d) => d.code === 'PS5001');
    assert.equal(found.length, 2);
    const actions = getCodeActions(doc, URI, found, found[0].range);
    assert.equal(actions.length, 1);
    assert.match(applyTextEdits(broken, editsOf(actions[0], URI)), /\{ "name": "Compute" \}/);
  });
});

/**
 * The text of the innermost object or array that holds every edit, with the edits applied. JSON is context-free:
 * the document parses after the edits exactly when this text does (the rest of it is unchanged), and parsing a
 * reference of a few hundred characters instead of a megabyte 15,000 times keeps the sweep to seconds.
 */
function editedContainer(document: PolicyDocument, edits: TextEdit[]): string {
  const spans = edits
    .map((e) => ({ start: document.lines.offsetAt(e.range.start), end: document.lines.offsetAt(e.range.end), text: e.newText }))
    .sort((a, b) => b.start - a.start);
  const from = Math.min(...spans.map((s) => s.start));
  const to = Math.max(...spans.map((s) => s.end));
  let node = findNodeAtOffset(document.parsed.root!, from);
  while (node && !((node.type === 'object' || node.type === 'array') && node.offset < from && to < node.offset + node.length))
    node = node.parent;
  const base = node ? node.offset : 0;
  let text = node ? document.parsed.text.slice(node.offset, node.offset + node.length) : document.parsed.text;
  for (const span of spans) text = text.slice(0, span.start - base) + span.text + text.slice(span.end - base);
  return text;
}

test('code actions on the examples with mistakes: every fix applies and parses, the preferred ones remove their diagnostic', () => {
  const definitions = new DefinitionCatalog();
  for (const file of listJsonFiles(path.join(REPO_ROOT, 'examples', 'definitions')))
    definitions.addDefinitionDocument(JSON.parse(fs.readFileSync(file, 'utf8')), file);
  const fixed = new Set<string>();
  for (const file of listJsonFiles(path.join(REPO_ROOT, 'examples', 'mistakes'))) {
    const text = fs.readFileSync(file, 'utf8');
    const document = parsePolicyDocument(text);
    const diagnostics = validateDocument(document, { definitions }).diagnostics;
    for (const diagnostic of diagnostics) {
      for (const action of getCodeActions(document, URI, [diagnostic], diagnostic.range, { definitions })) {
        const result = applyTextEdits(text, editsOf(action, URI));
        assert.doesNotThrow(() => JSON.parse(result), `${path.basename(file)}: '${action.title}' breaks the JSON`);
        fixed.add(diagnostic.code);
        if (!action.isPreferred) continue;
        const after = validateDocument(parsePolicyDocument(result), { definitions }).diagnostics.filter((d) => d.code === diagnostic.code);
        assert.equal(
          after.length,
          diagnostics.filter((d) => d.code === diagnostic.code).length - 1,
          `${path.basename(file)}: '${action.title}' left its ${diagnostic.code}`,
        );
      }
    }
  }
  for (const code of ['PS3001', 'PS3002', 'PS3003', 'PS3004', 'PS4001', 'PS5001', 'PS5002', 'PS5003', 'PS7001', 'PS7003', 'PS2004'])
    assert.ok(fixed.has(code), `no fix of ${code} in examples/mistakes`);
});

// Every diagnostic of every built-in set: computing its fixes never throws, and every fix leaves JSON that parses.
for (const corpus of CORPORA)
  describe(`code actions over the corpus (${corpus.label})`, () => {
    test('every fix of every diagnostic of every file applies and parses; a sample of them, re-validated, removes its diagnostic', () => {
      const definitions = new DefinitionCatalog();
      definitions.addIndex(JSON.parse(fs.readFileSync(corpus.index, 'utf8')));
      const counts = new Map<string, number>();
      const revalidated = new Map<string, number>();
      const SAMPLE = 10;
      let diagnosticCount = 0;
      for (const file of listJsonFiles(corpus.sets)) {
        const name = path.basename(file);
        const options = { definitions, cloud: cloudOfPath(file) };
        const document = parsePolicyDocument(fs.readFileSync(file, 'utf8'));
        const diagnostics = validateDocument(document, options).diagnostics;
        diagnosticCount += diagnostics.length;
        const sampledHere = new Set<string>();
        const fixAllsHere = new Set<string>();
        for (const diagnostic of diagnostics) {
          let actions: CodeAction[] = [];
          assert.doesNotThrow(
            () => (actions = getCodeActions(document, URI, [diagnostic], diagnostic.range, options)),
            `${name}: ${diagnostic.code}`,
          );
          for (const action of actions) {
            // A fix-all action is the same for every diagnostic of its code: checked once per file.
            if (action.title.startsWith('Write every')) {
              if (fixAllsHere.has(action.title)) continue;
              fixAllsHere.add(action.title);
            }
            assert.doesNotThrow(
              () => JSON.parse(editedContainer(document, editsOf(action, URI))),
              `${name}: '${action.title}' for ${diagnostic.code} at line ${diagnostic.range.start.line + 1} breaks the JSON`,
            );
            counts.set(diagnostic.code, (counts.get(diagnostic.code) ?? 0) + 1);
            // Re-validating each of 15,000 fixes would take minutes: the first fix of each code in a file, up to SAMPLE per code.
            const code = diagnostic.code;
            if (!action.isPreferred || sampledHere.has(code) || (revalidated.get(code) ?? 0) >= SAMPLE) continue;
            sampledHere.add(code);
            revalidated.set(code, (revalidated.get(code) ?? 0) + 1);
            const fixed = applyTextEdits(document.parsed.text, editsOf(action, URI));
            JSON.parse(fixed);
            const after = validateDocument(parsePolicyDocument(fixed), options).diagnostics;
            const same = (d: PolicySetDiagnostic) => d.code === code;
            assert.equal(after.filter(same).length, diagnostics.filter(same).length - 1, `${name}: '${action.title}' left its ${code}`);
            assert.equal(after.filter((d) => d.severity === 1).length, 0, `${name}: '${action.title}' added errors`);
          }
        }
      }
      const list = (m: Map<string, number>) => [...m].map(([k, v]) => `${k} ${v}`).join(', ');
      console.log(
        `# corpus (${corpus.label}): ${diagnosticCount} diagnostics; fixes by code: ${list(counts)}; re-validated: ${list(revalidated)}`,
      );
      // The corpus has parameter types and references, definition parameters and property names in another casing, and unused parameters and groups.
      for (const code of ['PS2006', 'PS7002', 'PS8008', 'PS7003', 'PS5003', 'PS2005'])
        assert.ok((revalidated.get(code) ?? 0) > 0, `no fix of ${code} in the corpus`);
    });
  });
