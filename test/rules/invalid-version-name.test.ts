// PS3001 invalid-version-name: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a1, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { REF, refWith, setResource } from '../support/ruleDocuments/versions';

const invalid: InvalidCase[] = [
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
];

const valid: ValidCase[] = [
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
];

run('invalid-version-name', { valid, invalid });
