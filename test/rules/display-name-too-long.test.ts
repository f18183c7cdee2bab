// PS9004 display-name-too-long: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withText } from '../support/ruleDocuments/limits';

const invalid: InvalidCase[] = [
  { name: 'displayName of 129 characters', text: withText('displayName', 'x'.repeat(129), true), code: 'PS9004', data: { length: 129 } },
  {
    name: 'displayName of 139 characters (AKS_CISBenchmark.json): a warning only',
    text: withText('displayName', 'Kubernetes '.repeat(12) + 'y'.repeat(7), true),
    code: 'PS9004',
    severity: 2,
  },
  {
    name: 'displayName of 129 characters, some written as escapes',
    text: withText('displayName', '\\u00e9'.repeat(10) + 'x'.repeat(119), true),
    code: 'PS9004',
    data: { length: 129 },
  },
  {
    name: 'severities: display-name-too-long raised to error',
    text: withText('displayName', 'x'.repeat(129), true),
    code: 'PS9004',
    options: { severities: { 'display-name-too-long': 'error' } },
    severity: 1,
  },
];

const valid: ValidCase[] = [
  { name: 'displayName of exactly 128 characters', text: withText('displayName', 'x'.repeat(128), false), notCodes: ['PS9004'] },
  {
    name: 'displayName of 128 characters, some written as escapes',
    text: withText('displayName', '\\u00e9'.repeat(10) + 'x'.repeat(118), false),
    notCodes: ['PS9004'],
  },
  {
    name: "PS9004 'off' by code",
    text: withText('displayName', 'x'.repeat(200), false),
    options: { severities: { PS9004: 'off' } },
    notCodes: ['PS9004'],
  },
  {
    name: 'template: a long deployment-time displayName and description',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "displayName": "[concat(parameters('prefix'), '${'x'.repeat(150)}')]",
        "description": "[concat(parameters('prefix'), '${'x'.repeat(600)}')]",
        "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }]
      }
    }`),
    notCodes: ['PS9004', 'PS9005'],
  },
];

run('display-name-too-long', { valid, invalid });
