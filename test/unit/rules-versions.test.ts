// PS3xxx: version names, versions, definitionVersion, response-only properties, apiVersion.
import { runInvalid, runValid, a1, a3, template, defId, type InvalidCase, type ValidCase } from './rules-harness';

const REF = `{ "policyDefinitionId": "${defId('d1')}" }`;
const refWith = (field: string) => `{ "policyDefinitionId": "${defId('d1')}", ${field} }`;

const setResource = (properties: string, extra = '') => `    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",${extra}
      "properties": ${properties}
    }`;

const invalid: InvalidCase[] = [
  {
    name: 'a parameter removed under a minor version (1.2.3 -> 1.3.0): the change needs 2.0.0, on the version',
    text: a3(`{ "version": |"1.3.0"|, "parameters": {}, "policyDefinitions": [${REF}] }`),
    code: 'PS3006',
    options: {
      previous: { text: a3(`{ "version": "1.2.3", "parameters": { "effect": { "type": "String", "defaultValue": "Audit" } }, "policyDefinitions": [${REF}] }`), label: 'HEAD' },
    },
    message: /2\.0\.0/,
  },
  {
    name: "version resource named '1.0' (suggests 1.0.0)",
    text: a1(`{ "policyDefinitions": [${REF}] }`, '|"1.0"|'),
    code: 'PS3001',
    data: { suggestion: '1.0.0' },
  },
  {
    name: "version resource named 'v2' (suggests 2.0.0)",
    text: a1(`{ "policyDefinitions": [${REF}] }`, '|"v2"|'),
    code: 'PS3001',
    data: { suggestion: '2.0.0' },
  },
  {
    name: 'a -preview suffix is not allowed in a version resource name',
    text: a1(`{ "policyDefinitions": [${REF}] }`, '|"1.0.0-preview"|'),
    code: 'PS3001',
  },
  {
    name: "version resource named '1.0.0.1', CRLF",
    text: `{
  "type": "Microsoft.Authorization/policySetDefinitions/versions",
  "name": |"1.0.0.1"|,
  "properties": { "policyDefinitions": [${REF}] }
}`,
    code: 'PS3001',
    crlf: true,
    data: { suggestion: '1.0.0' },
  },
  {
    name: "template: top-level versions resource named 'mySet/1.0'",
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions/versions",
      "apiVersion": "2025-11-01",
      "name": |"mySet/1.0"|,
      "properties": { "policyDefinitions": [${REF}] }
    }`),
    code: 'PS3001',
  },
  {
    name: "template: nested versions child named '1.0.0-beta'",
    text: template(
      setResource(
        `{ "policyDefinitions": [${REF}] },
      "resources": [
        {
          "type": "versions",
          "apiVersion": "2025-11-01",
          "name": |"1.0.0-beta"|,
          "properties": { "policyDefinitions": [${REF}] }
        }
      ]`,
      ),
    ),
    code: 'PS3001',
  },
  {
    name: "template: a top-level versions resource needs '<set>/<version>', not just '1.0.0' (ARM segment count)",
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions/versions",
      "apiVersion": "2025-11-01",
      "name": |"1.0.0"|,
      "properties": { "policyDefinitions": [${REF}] }
    }`),
    code: 'PS3001',
  },
  {
    name: "template: a nested versions child is named by its version alone, not 'mySet/1.0.0' (ARM segment count)",
    text: template(
      setResource(
        `{ "policyDefinitions": [${REF}] },
      "resources": [{ "type": "versions", "apiVersion": "2025-11-01", "name": |"mySet/1.0.0"|, "properties": { "policyDefinitions": [${REF}] } }]`,
      ),
    ),
    code: 'PS3001',
    data: { messageId: 'nestedChild', version: '1.0.0' },
  },
  {
    name: "A3 version '1.0' (suggests 1.0.0)",
    text: a3(`{ "version": |"1.0"|, "policyDefinitions": [${REF}] }`),
    code: 'PS3002',
    data: { suggestion: '1.0.0' },
    message: /suffix/,
  },
  {
    name: "A3 'Version' (capital V) is checked too",
    text: a3(`{ "Version": |"1.0"|, "policyDefinitions": [${REF}] }`),
    code: 'PS3002',
  },
  {
    name: 'A3 versions entry',
    text: a3(`{ "version": "2.0.0", "versions": ["2.0.0", |"1.0"|], "policyDefinitions": [${REF}] }`),
    code: 'PS3002',
  },
  {
    name: 'A3 version with an empty suffix',
    text: a3(`{ "version": |"1.0.0-"|, "policyDefinitions": [${REF}] }`),
    code: 'PS3002',
  },
  {
    name: 'A1 properties.version with -preview is strict',
    text: a1(`{ "version": |"1.0.0-preview"|, "policyDefinitions": [${REF}] }`),
    code: 'PS3002',
    data: { suggestion: '1.0.0' },
  },
  {
    name: 'a set in an ARM template is strict about -preview',
    text: template(setResource(`{ "version": |"1.0.0-preview"|, "policyDefinitions": [${REF}] }`)),
    code: 'PS3002',
  },
  { name: "definitionVersion '1.*'", text: a3(`{ "policyDefinitions": [${refWith('"definitionVersion": |"1.*"|')}] }`), code: 'PS3003' },
  { name: "definitionVersion '*.*.*'", text: a3(`{ "policyDefinitions": [${refWith('"definitionVersion": |"*.*.*"|')}] }`), code: 'PS3003' },
  { name: "definitionVersion '1.*.0'", text: a3(`{ "policyDefinitions": [${refWith('"definitionVersion": |"1.*.0"|')}] }`), code: 'PS3003' },
  { name: "definitionVersion 'latest'", text: a3(`{ "policyDefinitions": [${refWith('"definitionVersion": |"latest"|')}] }`), code: 'PS3003' },
  { name: "definitionVersion 'v1.*.*'", text: a1(`{ "policyDefinitions": [${refWith('"definitionVersion": |"v1.*.*"|')}] }`), code: 'PS3003' },
  {
    name: 'definitionVersion in the second of several multi-line references',
    text: a3(`{
    "policyDefinitions": [
      {
        "policyDefinitionId": "${defId('d1')}",
        "definitionVersion": "1.*.*"
      },
      {
        "policyDefinitionId": "${defId('d2')}",
        "definitionVersion": |"1.0"|
      }
    ]
  }`),
    code: 'PS3003',
  },
  {
    name: 'latestDefinitionVersion in a version resource: the key',
    text: a1(`{ "policyDefinitions": [${refWith('|"latestDefinitionVersion"|: "1.0.0"')}] }`),
    code: 'PS3004',
  },
  {
    name: 'effectiveDefinitionVersion in a templated version resource',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions/versions",
      "apiVersion": "2025-11-01",
      "name": "mySet/1.0.0",
      "properties": { "policyDefinitions": [${refWith('|"effectiveDefinitionVersion"|: "1.0.0"')}] }
    }`),
    code: 'PS3004',
  },
  {
    name: "apiVersion '2025-11'",
    text: `{
  "type": "Microsoft.Authorization/policySetDefinitions/versions",
  "apiVersion": |"2025-11"|,
  "name": "1.0.0",
  "properties": { "policyDefinitions": [${REF}] }
}`,
    code: 'PS3005',
  },
];

const valid: ValidCase[] = [
  {
    name: "PS3005 is about version resources: a set's own apiVersion is not checked by it",
    text: template(setResource(`{ "policyDefinitions": [${REF}] }`).replace('"apiVersion": "2025-11-01"', '"apiVersion": "2025-11"')),
    notCodes: ['PS3005'],
  },
  {
    name: 'a version resource whose apiVersion is not a string: left to the schema',
    text: `{
  "type": "Microsoft.Authorization/policySetDefinitions/versions",
  "apiVersion": 20251101,
  "name": "1.0.0",
  "properties": { "policyDefinitions": [${REF}] }
}`,
    notCodes: ['PS3005'],
    allowErrors: ['PS2001'],
  },
  {
    name: 'template: a top-level versions resource whose version is an expression is not checked',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions/versions",
      "apiVersion": "2025-11-01",
      "name": "mySet/[parameters('version')]",
      "properties": { "policyDefinitions": [${REF}] }
    }`),
    notCodes: ['PS3001'],
  },
  {
    name: 'template: the segments of a name with an expression among them are not counted (the expression may hold several)',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions/versions",
      "apiVersion": "2025-11-01",
      "name": "[parameters('prefix')]/mySet/1.0.0",
      "properties": { "policyDefinitions": [${REF}] }
    }`),
    notCodes: ['PS3001'],
  },
  {
    name: 'a version resource whose name is not a string: left to the schema',
    text: a1(`{ "policyDefinitions": [${REF}] }`, '100'),
    notCodes: ['PS3001'],
    allowErrors: ['PS2001'],
  },
  {
    name: 'A3 version x.y.z-preview with versions x.y.z-PREVIEW (47 built-ins)',
    text: a3(`{ "version": "1.0.1-preview", "versions": ["1.0.1-PREVIEW"], "policyDefinitions": [${REF}] }`),
    notCodes: ['PS3002'],
  },
  {
    name: "A3 'Version' 1.0.0 and a metadata.version 1.0.0-deprecated",
    text: a3(`{ "Version": "1.0.0", "metadata": { "version": "1.0.0-deprecated" }, "policyDefinitions": [${REF}] }`),
    notCodes: ['PS3002'],
  },
  {
    name: 'A3 responses carry latestDefinitionVersion and effectiveDefinitionVersion',
    text: a3(`{ "policyDefinitions": [${refWith('"latestDefinitionVersion": "1.0.0", "effectiveDefinitionVersion": "1.0.0"')}] }`),
    notCodes: ['PS3004'],
  },
  {
    name: 'definitionVersion N.*.*, N.*.*-preview, N.N.*, N.N.N',
    text: a3(`{ "policyDefinitions": [
      ${refWith('"policyDefinitionReferenceId": "a", "definitionVersion": "1.*.*"')},
      ${refWith('"policyDefinitionReferenceId": "b", "definitionVersion": "10.*.*-preview"')},
      ${refWith('"policyDefinitionReferenceId": "c", "definitionVersion": "1.2.*"')},
      ${refWith('"policyDefinitionReferenceId": "d", "definitionVersion": "1.2.3"')}
    ] }`),
    notCodes: ['PS3003'],
  },
  {
    name: "version resource named '10.20.30' with apiVersion 2025-11-01 and version 10.20.30",
    text: a1(`{ "version": "10.20.30", "policyDefinitions": [${REF}] }`, '"10.20.30"'),
    notCodes: ['PS3001', 'PS3002', 'PS3005'],
  },
  {
    name: 'Provider.Authorization namespace (the spec spelling)',
    text: a1(`{ "policyDefinitions": [${REF}] }`).replace('Microsoft.Authorization', 'Provider.Authorization'),
    notCodes: ['PS3001'],
  },
  {
    name: "template: top-level child versions resource named 'mySet/1.0.0'",
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions/versions",
      "apiVersion": "2025-11-01",
      "name": "mySet/1.0.0",
      "dependsOn": ["[resourceId('Microsoft.Authorization/policySetDefinitions', 'mySet')]"],
      "properties": { "version": "1.0.0", "policyDefinitions": [${REF}] }
    }`),
    notCodes: ['PS3001', 'PS3002'],
  },
  {
    name: "template: nested versions child named '1.0.0'",
    text: template(
      setResource(
        `{ "policyDefinitions": [${REF}] },
      "resources": [{ "type": "versions", "apiVersion": "2025-11-01", "name": "1.0.0", "properties": { "policyDefinitions": [${REF}] } }]`,
      ),
    ),
    notCodes: ['PS3001'],
  },
  {
    name: 'template: names, versions, apiVersion and definitionVersion as deployment-time expressions',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions/versions",
      "apiVersion": "[variables('apiVersion')]",
      "name": "[concat(parameters('setName'), '/', parameters('version'))]",
      "properties": { "version": "[parameters('version')]", "policyDefinitions": [${refWith('"definitionVersion": "[parameters(\'pin\')]"')}] }
    }`),
    notCodes: ['PS3001', 'PS3002', 'PS3003', 'PS3005'],
  },
  {
    name: 'a version and a definitionVersion that are not text: left to the schema (PS2001)',
    text: a3(`{ "version": 1, "policyDefinitions": [${refWith('"definitionVersion": 1')}] }`),
    notCodes: ['PS3002', 'PS3003'],
    allowErrors: ['PS2001'],
  },
  {
    name: 'apiVersion with a -preview suffix',
    text: a1(`{ "policyDefinitions": [${REF}] }`).replace('2025-11-01', '2025-11-01-preview'),
    notCodes: ['PS3005'],
  },
];

runInvalid('PS3', invalid);
runValid('PS3', valid);
