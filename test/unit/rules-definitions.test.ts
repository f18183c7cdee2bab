// PS8xxx: checks against the referenced policy definitions (an index and definition documents).
import { DefinitionCatalog } from '#service';
import { runInvalid, runValid, a3, template, catalog, DEF, type InvalidCase, type ValidCase } from './rules-harness';

const withCatalog = { definitions: catalog() };
const gov = { definitions: catalog(), cloud: 'AzureUSGovernment' };
const cloud = { definitions: catalog(), cloud: 'AzureCloud' };

/** A set with one reference to `id`; `fields` is the rest of the reference object's members. */
function ref(id: string, fields: string, setParameters = ''): string {
  return a3(`{${setParameters ? `\n    "parameters": { ${setParameters} },` : ''}
    "policyDefinitions": [
      {
        "policyDefinitionId": "${id}"${fields ? `,\n        ${fields}` : ''}
      }
    ]
  }`);
}

const LOCATIONS = `"listOfLocations": { "value": ["eastus"] }`;

/**
 * A catalogue whose definitions each have two variants (clouds other than the document's: both apply, and
 * every variant must agree), for PS8004: `mixed` declares allowed values in one variant only, `differ`
 * allows other values in each, `types` declares an Integer in one and a String in the other; for PS8002,
 * `p` is required in one variant and has a default (`req-default`) or is not declared (`req-absent`) in the
 * other, or is required in both (`req-both`); for pinned versions, `twelve` is at 12.0.0, `noversion` has no
 * version, `split-major` is at 1.0.0 in one variant and 2.0.0 in the other (each requiring `p`); for PS8008,
 * `casing-split` declares `p` in one variant and `P` in the other; for PS8007, `deprecated-split` is deprecated
 * in one variant only and `deprecated-both` in both; for PS8009, `float` and `date` take a Float and a DateTime, and
 * `flow-split` an Array in one variant and a String in the other.
 */
const MULTI = '/providers/Microsoft.Authorization/policyDefinitions/';
function variantsCatalog(): DefinitionCatalog {
  const c = new DefinitionCatalog();
  const entry = (name: string, cloud: string, p: object) => ({ name, id: `${MULTI}${name}`, version: '1.0.0', versions: ['1.0.0'], parameters: { p }, cloud });
  c.addIndex([
    entry('mixed', 'CloudA', { type: 'String', allowedValues: ['A'] }),
    entry('mixed', 'CloudB', { type: 'String' }),
    entry('differ', 'CloudA', { type: 'String', allowedValues: ['A', 'B'] }),
    entry('differ', 'CloudB', { type: 'String', allowedValues: ['A', 'C'] }),
    entry('types', 'CloudA', { type: 'Integer', allowedValues: [1] }),
    entry('types', 'CloudB', { type: 'String', allowedValues: ['1'] }),
    entry('single', 'CloudA', { type: 'Integer', allowedValues: [1, 2] }),
    entry('list', 'CloudA', { type: 'Array', allowedValues: ['eastus', 'westus'] }),
    entry('req-default', 'CloudA', { type: 'String' }),
    entry('req-default', 'CloudB', { type: 'String', defaultValue: 'x' }),
    entry('req-absent', 'CloudA', { type: 'String' }),
    { ...entry('req-absent', 'CloudB', {}), parameters: {} },
    entry('req-both', 'CloudA', { type: 'String' }),
    entry('req-both', 'CloudB', { type: 'String' }),
    { ...entry('twelve', 'CloudA', { type: 'String' }), version: '12.0.0', versions: ['12.0.0'] },
    { ...entry('noversion', 'CloudA', { type: 'String' }), version: undefined, versions: [] },
    entry('split-major', 'CloudA', { type: 'String' }),
    { ...entry('split-major', 'CloudB', { type: 'String' }), version: '2.0.0', versions: ['2.0.0'] },
    entry('casing-split', 'CloudA', { type: 'String' }),
    { ...entry('casing-split', 'CloudB', {}), parameters: { P: { type: 'String' } } },
    { ...entry('deprecated-split', 'CloudA', { type: 'String', defaultValue: 'x' }), deprecated: true },
    entry('deprecated-split', 'CloudB', { type: 'String', defaultValue: 'x' }),
    { ...entry('deprecated-both', 'CloudA', { type: 'String', defaultValue: 'x' }), deprecated: true },
    { ...entry('deprecated-both', 'CloudB', { type: 'String', defaultValue: 'x' }), deprecated: true },
    entry('float', 'CloudA', { type: 'Float' }),
    entry('date', 'CloudA', { type: 'DateTime' }),
    entry('flow-split', 'CloudA', { type: 'Array' }),
    entry('flow-split', 'CloudB', { type: 'String' }),
  ]);
  return c;
}
const withVariants = { definitions: variantsCatalog() };
/** The same, with the type check (PS8003, which reports these values itself) off. */
const withVariantsUntyped = { definitions: withVariants.definitions, severities: { PS8003: 'off' as const } };

const invalid: InvalidCase[] = [
  {
    name: 'PS8002: a definition whose version is not known is checked whatever major the reference pins',
    text: a3(`{
    "policyDefinitions": [{ |"policyDefinitionId"|: "${MULTI}noversion", "definitionVersion": "1.*.*" }]
  }`),
    code: 'PS8002',
    options: withVariants,
  },
  {
    name: 'PS8002: a parameter every variant requires, not passed',
    text: a3(`{
    "policyDefinitions": [{ |"policyDefinitionId"|: "${MULTI}req-both" }]
  }`),
    code: 'PS8002',
    options: withVariants,
  },
  {
    name: 'PS8004: an Array parameter given a value outside its allowed values is reported even when its type differs',
    text: ref(`${MULTI}list`, `"parameters": { "p": { "value": |"northpole"| } }`),
    code: 'PS8004',
    options: withVariantsUntyped,
  },
  {
    name: 'unknown parameter: its key, with a suggestion',
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, |"efect"|: { "value": "Audit" } }`),
    code: 'PS8001',
    options: withCatalog,
    data: { name: 'efect', suggestion: 'effect' },
    message: /'Main definition'/,
  },
  {
    name: 'unknown parameter while pinning the current major',
    text: ref(DEF.main, `"definitionVersion": "1.*.*",\n        "parameters": { ${LOCATIONS}, |"minPort"|: { "value": 1 } }`),
    code: 'PS8001',
    options: withCatalog,
  },
  {
    name: 'unknown parameter while pinning the current major with -preview (1.*.*-preview against 1.x.x)',
    text: ref(DEF.main, `"definitionVersion": "1.*.*-preview",\n        "parameters": { ${LOCATIONS}, |"minPort"|: { "value": 1 } }`),
    code: 'PS8001',
    options: withCatalog,
  },
  {
    name: 'definition IDs resolve in any namespace and casing',
    text: ref(DEF.main.replace('Microsoft.Authorization', 'Provider.Authorization').toLowerCase(), `"parameters": { ${LOCATIONS}, |"nope"|: { "value": 1 } }`),
    code: 'PS8001',
    options: withCatalog,
  },
  {
    name: 'a parameter only the other cloud declares, with that cloud chosen',
    text: ref(DEF.twoClouds, `"parameters": { "cloudOnly": { "value": "a" }, |"govOnly"|: { "value": "b" } }`),
    code: 'PS8001',
    options: cloud,
  },
  {
    name: 'a parameter only the Government variant declares, in a set of the default cloud',
    text: ref(DEF.twoClouds, `"parameters": { "cloudOnly": { "value": "a" }, |"govOnly"|: { "value": "b" } }`),
    code: 'PS8001',
    options: withCatalog,
  },
  {
    name: 'a parameter no cloud declares',
    text: ref(DEF.twoClouds, `"parameters": { "cloudOnly": { "value": "a" }, |"neither"|: { "value": "b" } }`),
    code: 'PS8001',
    options: withCatalog,
  },
  {
    name: 'Government set: a definition only AzureCloud has is still checked',
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, |"nope"|: { "value": 1 } }`),
    code: 'PS8001',
    options: gov,
  },
  {
    name: 'custom definition from a definition document, CRLF',
    text: ref(DEF.custom, `"parameters": {\n          "tagName": { "value": "env" },\n          |"tagValus"|: { "value": [] }\n        }`),
    code: 'PS8001',
    crlf: true,
    options: withCatalog,
    data: { suggestion: 'tagValues' },
  },
  {
    name: "pinning the latest major: parameters the latest version dropped are unknown",
    text: ref(DEF.changed, `"definitionVersion": "8.*.*",\n        "parameters": { |"minPort"|: { "value": 1 } }`),
    code: 'PS8001',
    options: withCatalog,
  },
  {
    name: "template: a value passed as '[[parameters()]' to an unknown parameter",
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "parameters": { "e": { "type": "String" } },
        "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}", "parameters": { ${LOCATIONS}, |"efect"|: { "value": "[[parameters('e')]" } } }]
      }
    }`),
    code: 'PS8001',
    options: withCatalog,
  },
  {
    name: 'a required parameter is missing: the key of the reference parameters',
    text: ref(DEF.main, `|"parameters"|: { "effect": { "value": "Audit" } }`),
    code: 'PS8002',
    options: withCatalog,
    data: { name: 'listOfLocations' },
  },
  {
    name: 'a required parameter is missing and the reference has no parameters: the policyDefinitionId key',
    text: ref(DEF.main, '').replace('"policyDefinitionId"', '|"policyDefinitionId"|'),
    code: 'PS8002',
    options: withCatalog,
  },
  {
    name: 'required in the chosen cloud',
    text: ref(DEF.twoClouds, `|"parameters"|: {}`),
    code: 'PS8002',
    options: cloud,
    data: { name: 'cloudOnly' },
  },
  {
    name: 'required by a custom definition document',
    text: ref(DEF.custom, `|"parameters"|: { "tagValues": { "value": [] } }`),
    code: 'PS8002',
    options: withCatalog,
    data: { name: 'tagName' },
  },
  {
    name: "a string for an Integer parameter",
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, "maxCount": { "value": |"5"| } }`),
    code: 'PS8003',
    options: withCatalog,
  },
  {
    name: "a string for an 'array' parameter (lowercase type in the index)",
    text: ref(DEF.main, `"parameters": { "listOfLocations": { "value": |"eastus"| } }`),
    code: 'PS8003',
    options: withCatalog,
  },
  {
    name: 'an array for a String parameter: the value key',
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, "effect": { |"value"|: ["Audit"] } }`),
    code: 'PS8003',
    options: withCatalog,
  },
  {
    name: "a string for an 'object' parameter",
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, "labelSelector": { "value": |"app=x"| } }`),
    code: 'PS8003',
    options: withCatalog,
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
  {
    name: 'a definitionVersion matching no version',
    text: ref(DEF.main, `"definitionVersion": |"2.*.*"|,\n        "parameters": { ${LOCATIONS} }`),
    code: 'PS8005',
    options: withCatalog,
    data: { knownVersions: ['1.2.0', '1.1.0', '1.0.0'] },
  },
  {
    name: 'a definitionVersion N.N.* matching no version',
    text: ref(DEF.main, `"definitionVersion": |"1.3.*"|,\n        "parameters": { ${LOCATIONS} }`),
    code: 'PS8005',
    options: withCatalog,
  },
  {
    name: 'an exact definitionVersion that does not exist',
    text: ref(DEF.main, `"definitionVersion": |"1.0.1"|,\n        "parameters": { ${LOCATIONS} }`),
    code: 'PS8005',
    options: withCatalog,
  },
  {
    name: 'a -preview definitionVersion of a missing major',
    text: ref(DEF.stable, `"definitionVersion": |"2.*.*-preview"|`),
    code: 'PS8005',
    options: withCatalog,
  },
  {
    name: 'an unknown built-in definition',
    text: ref(DEF.missing, '').replace(`"${DEF.missing}"`, `|"${DEF.missing}"|`),
    code: 'PS8006',
    options: withCatalog,
    severity: 2,
    data: { name: DEF.missing.split('/').pop() },
  },
  {
    name: 'a definition deprecated in every variant that applies',
    text: ref(`${MULTI}deprecated-both`, '').replace(`"${MULTI}deprecated-both"`, `|"${MULTI}deprecated-both"|`),
    code: 'PS8007',
    options: withVariants,
  },
  {
    name: 'a deprecated definition: info on the ID',
    text: ref(DEF.deprecated, '').replace(`"${DEF.deprecated}"`, `|"${DEF.deprecated}"|`),
    code: 'PS8007',
    options: withCatalog,
    severity: 3,
  },
  {
    name: 'a parameter in another casing than the definition declares: hint on the key',
    text: ref(DEF.casing, `"parameters": { |"membersToInclude"|: { "value": "a" } }`),
    code: 'PS8008',
    options: withCatalog,
    data: { declared: 'MembersToInclude' },
  },
  {
    name: 'a String set parameter passed whole to an Array parameter: the name in the call',
    text: ref(DEF.main, `"parameters": { "listOfLocations": { "value": "[parameters('|location|')]" } }`, `"location": { "type": "String" }`),
    code: 'PS8009',
    options: withCatalog,
    data: { setParameter: 'location', setType: 'String', name: 'listOfLocations', type: 'Array' },
  },
  {
    name: "a lowercase 'array' set parameter passed to a String parameter",
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, "effect": { "value": "[parameters('|effects|')]" } }`, `"effects": { "type": "array" }`),
    code: 'PS8009',
    options: withCatalog,
  },
  {
    name: "template: a '[[parameters()]' flow of the wrong type",
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "parameters": { "count": { "type": "String" } },
        "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}", "parameters": { ${LOCATIONS}, "maxCount": { "value": "[[parameters('|count|')]" } } }]
      }
    }`),
    code: 'PS8009',
    options: withCatalog,
  },
  {
    name: 'a custom definition (management group scope) that no loaded custom definition has, matched by name',
    text: a3(`{
    "policyDefinitions": [{ "policyDefinitionId": |"/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyDefinitions/custom-deff"| }]
  }`),
    code: 'PS8010',
    options: withCatalog,
  },
  {
    name: 'a String set parameter passed whole to a Float parameter: only an Integer flows into a Float',
    text: a3(`{
    "parameters": { "ratio": { "type": "String" } },
    "policyDefinitions": [{ "policyDefinitionId": "${MULTI}float", "parameters": { "p": { "value": "[parameters('|ratio|')]" } } }]
  }`),
    code: 'PS8009',
    options: withVariants,
    data: { setType: 'String', type: 'Float' },
  },
];

const valid: ValidCase[] = [
  {
    name: 'a reference pinned to a version that is not N.*.* is not checked against the parameters of the known one',
    text: ref(DEF.main, `"definitionVersion": "v1.*.*"`),
    options: withCatalog,
    notCodes: ['PS8002'],
    allowErrors: ['PS3003'],
  },
  {
    name: 'a reference pinned to major 2 is not checked against the parameters of 12.0.0',
    text: ref(`${MULTI}twelve`, `"definitionVersion": "2.*.*"`),
    options: withVariants,
    notCodes: ['PS8002'],
    allowErrors: ['PS8005'],
  },
  {
    name: 'a reference pinned to a major only one of the applying variants is at is not checked against their parameters',
    text: ref(`${MULTI}split-major`, `"definitionVersion": "1.*.*"`),
    options: withVariants,
    notCodes: ['PS8002'],
  },
  {
    name: 'PS8002: a parameter one variant requires and another gives a default is not required',
    text: ref(`${MULTI}req-default`, ''),
    options: withVariants,
    notCodes: ['PS8002'],
  },
  {
    name: 'PS8002: a parameter one variant requires and another does not declare is not required',
    text: ref(`${MULTI}req-absent`, ''),
    options: withVariants,
    notCodes: ['PS8002'],
  },
  {
    name: "template: a reference whose parameters are a deployment-time expression is not checked for missing ones",
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "s",
      "properties": {
        "policyDefinitions": [{ "policyDefinitionId": "${DEF.main}", "parameters": "[variables('mainParameters')]" }]
      }
    }`),
    options: withCatalog,
    notCodes: ['PS8002'],
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
  {
    name: "definitionVersion '1.*.*-preview' against a definition that has only 1.x.x (43 built-in references)",
    text: ref(DEF.stable, `"definitionVersion": "1.*.*-preview",\n        "parameters": { "effect": { "value": "Audit" } }`),
    options: withCatalog,
    notCodes: ['PS8001', 'PS8005'],
  },
  {
    name: "definitionVersion '2.*.*' against versions '2.0.0-PREVIEW' (664 references match only ignoring case)",
    text: ref(DEF.preview, `"definitionVersion": "2.*.*"`),
    options: withCatalog,
    notCodes: ['PS8005'],
  },
  {
    name: 'a reference pinning an older major passes parameters the latest version dropped (70 built-in references)',
    text: ref(DEF.changed, `"definitionVersion": "7.*.*",\n        "parameters": { "minPort": { "value": 0 }, "maxPort": { "value": 65535 }, "excludedContainers": { "value": [] } }`),
    options: withCatalog,
    notCodes: ['PS8001', 'PS8002', 'PS8003', 'PS8005'],
  },
  {
    name: 'same definition in two clouds: AzureCloud (the default) requires and knows only its own parameters',
    text: ref(DEF.twoClouds, `"parameters": { "cloudOnly": { "value": "a" } }`),
    options: withCatalog,
    notCodes: ['PS8001', 'PS8002'],
  },
  {
    name: 'same definition in two clouds: the Government variant when that cloud is chosen',
    text: ref(DEF.twoClouds, `"definitionVersion": "2.*.*",\n        "parameters": { "govOnly": { "value": "b" } }`),
    options: gov,
    notCodes: ['PS8001', 'PS8002', 'PS8005'],
  },
  {
    name: 'parameter names match case-insensitively (79 built-in references)',
    text: ref(DEF.casing, `"parameters": { "membersToInclude": { "value": "a" }, "effect": { "value": "AuditIfNotExists" } }`),
    options: withCatalog,
    notCodes: ['PS8001', 'PS8002', 'PS8004'],
  },
  {
    name: 'literal values that fit: allowed case-insensitively, Integer, object, array',
    text: ref(DEF.main, `"parameters": { "listOfLocations": { "value": [] }, "effect": { "value": "deny" }, "maxCount": { "value": 10 }, "labelSelector": { "value": { "app": "x" } } }`),
    options: withCatalog,
    notCodes: ['PS8001', 'PS8002', 'PS8003', 'PS8004'],
  },
  {
    name: 'a null value is not type-checked',
    text: ref(DEF.main, `"parameters": { ${LOCATIONS}, "maxCount": { "value": null } }`),
    options: withCatalog,
    notCodes: ['PS8003'],
  },
  {
    name: 'a value that fits the type of one variant is not a type mismatch (Integer in one, String in the other)',
    text: ref(`${MULTI}types`, `"parameters": { "p": { "value": "1" } }`),
    options: withVariants,
    notCodes: ['PS8003'],
  },
  {
    name: 'a parameter written as one variant declares it is not a casing hint, even if another variant cases it otherwise',
    text: a3(`{
    "policyDefinitions": [
      { "policyDefinitionId": "${MULTI}casing-split", "parameters": { "p": { "value": "a" } } },
      { "policyDefinitionId": "${MULTI}casing-split", "parameters": { "P": { "value": "a" } } }
    ]
  }`),
    options: withVariants,
    notCodes: ['PS8008'],
  },
  {
    name: 'a definition deprecated in only one variant that applies is not reported deprecated',
    text: ref(`${MULTI}deprecated-split`, ''),
    options: withVariants,
    notCodes: ['PS8007'],
  },
  {
    name: 'type flows between types a value passes unchanged: Integer to Float, String to DateTime, and to a type one variant has',
    text: a3(`{
    "parameters": { "count": { "type": "Integer" }, "when": { "type": "String" }, "name": { "type": "String" } },
    "policyDefinitions": [
      { "policyDefinitionId": "${MULTI}float", "parameters": { "p": { "value": "[parameters('count')]" } } },
      { "policyDefinitionId": "${MULTI}date", "parameters": { "p": { "value": "[parameters('when')]" } } },
      { "policyDefinitionId": "${MULTI}flow-split", "parameters": { "p": { "value": "[parameters('name')]" } } }
    ]
  }`),
    options: withVariants,
    notCodes: ['PS8009'],
  },
  {
    name: 'a definitionVersion that only the second cloud variant has is known (the variants are all looked through)',
    text: ref(DEF.twoClouds, `"definitionVersion": "2.1.*",\n        "parameters": { "cloudOnly": { "value": "a" } }`),
    options: withCatalog,
    notCodes: ['PS8005'],
  },
  {
    name: 'expression values are not type- or allowed-value-checked',
    text: ref(
      DEF.main,
      `"parameters": {
          "listOfLocations": { "value": "[if(empty(parameters('locations')), createArray('eastus'), parameters('locations'))]" },
          "effect": { "value": "[if(equals(parameters('mode'), 'strict'), 'Deny', 'Audit')]" },
          "maxCount": { "value": "[parameters('count')]" }
        }`,
      `"locations": { "type": "Array" }, "mode": { "type": "String" }, "count": { "type": "Integer" }`,
    ),
    options: withCatalog,
    notCodes: ['PS8003', 'PS8004', 'PS8009'],
  },
  {
    name: 'type flows that are fine: Integer to Integer, lowercase array to Array, String to String, Object to object',
    text: ref(
      DEF.main,
      `"parameters": {
          "listOfLocations": { "value": "[parameters('l')]" },
          "effect": { "value": "[parameters('e')]" },
          "maxCount": { "value": "[parameters('c')]" },
          "labelSelector": { "value": "[parameters('s')]" }
        }`,
      `"l": { "type": "array" }, "e": { "type": "string" }, "c": { "type": "Integer" }, "s": { "type": "Object" }`,
    ),
    options: withCatalog,
    notCodes: ['PS8009'],
  },
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
    name: 'without a catalog nothing is checked against definitions',
    text: ref(DEF.main, `"definitionVersion": "9.*.*",\n        "parameters": { "nope": { "value": 1 } }`),
    notCodes: ['PS8001', 'PS8002', 'PS8005', 'PS8006'],
  },
  {
    name: 'a catalog without built-ins does not report unknown built-in IDs',
    text: ref(DEF.missing, ''),
    options: { definitions: new DefinitionCatalog() },
    notCodes: ['PS8006'],
  },
  {
    name: 'template: a deployment-time definition ID is not resolved',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": { "policyDefinitions": [{ "policyDefinitionId": "[variables('defId')]", "parameters": { "anything": { "value": 1 } } }] }
    }`),
    options: withCatalog,
    notCodes: ['PS8001', 'PS8002', 'PS8006'],
  },
];

runInvalid('PS8', invalid);
runValid('PS8', valid);
