// PS5xxx: policyDefinitionGroups and groupNames; severity settings.
import { runInvalid, runValid, a1, a3, template, defId, type InvalidCase, type ValidCase } from './rules-harness';

const D1 = defId('d1');

const GROUPED = (groupNames: string) =>
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

const invalid: InvalidCase[] = [
  {
    name: 'undefined group with a suggestion, related to every declared group',
    text: GROUPED('["Network", "Storage", |"Storag"|]'),
    code: 'PS5001',
    data: { suggestion: 'Storage', messageId: 'undefinedDidYouMean' },
    related: ['"Network"', '"Storage"'],
    message: /Did you mean 'Storage'/,
  },
  {
    name: 'undefined group without a close match, CRLF',
    text: GROUPED('["Network", "Storage", |"Compute"|]'),
    code: 'PS5001',
    crlf: true,
    data: { messageId: 'undefined' },
    related: ['"Network"', '"Storage"'],
  },
  {
    name: 'groupNames without any policyDefinitionGroups: related to the properties',
    text: a3(`{
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": [|"Network"|] }]
  }`),
    code: 'PS5001',
    data: { messageId: 'noGroups' },
    related: ['"properties"'],
  },
  {
    name: 'groupNames with an empty policyDefinitionGroups',
    text: a1(`{
    "policyDefinitionGroups": [],
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": [|"Network"|] }]
  }`),
    code: 'PS5001',
    data: { messageId: 'noGroups' },
  },
  {
    name: 'undefined group in a set in an ARM template',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "policyDefinitionGroups": [{ "name": "Network" }],
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": ["Network", |"Netwrk"|] }]
      }
    }`),
    code: 'PS5001',
    related: ['"Network"'],
  },
  {
    name: 'severities: PS5001 set to warning by code',
    text: GROUPED('["Network", "Storage", |"Compute"|]'),
    code: 'PS5001',
    options: { severities: { PS5001: 'warning' } },
    severity: 2,
  },
  {
    name: 'severities: undefined-group set to info by rule name',
    text: GROUPED('["Network", "Storage", |"Compute"|]'),
    code: 'PS5001',
    options: { severities: { 'undefined-group': 'info' } },
    severity: 3,
  },
  {
    name: 'severities: unused-group raised to error by rule name',
    text: GROUPED('["Network"]').replace('{ "name": "Storage" }', '{ "name": |"Storage"| }'),
    code: 'PS5003',
    options: { severities: { 'unused-group': 'error' } },
    severity: 1,
  },
  {
    name: 'duplicate group names compare case-insensitively: related to the first',
    text: a3(`{
    "policyDefinitionGroups": [
      { "name": "Network" },
      { "name": |"NETWORK"| }
    ],
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": ["Network"] }]
  }`),
    code: 'PS5002',
    related: ['"Network"'],
  },
  {
    name: 'unused group is a hint on its name',
    text: GROUPED('["Network"]').replace('{ "name": "Storage" }', '{ "name": |"Storage"| }'),
    code: 'PS5003',
    severity: 4,
  },
  {
    name: 'unused groups when no reference has groupNames',
    text: GROUPED('[]').replace('{ "name": "Network" }', '{ "name": |"Network"| }'),
    code: 'PS5003',
    count: 2,
  },
  {
    name: 'groupNames entry in another casing: hint, related to the declaration',
    text: GROUPED('[|"network"|, "Storage"]'),
    code: 'PS5004',
    related: ['"Network"'],
    data: { declared: 'Network' },
  },
];

const valid: ValidCase[] = [
  { name: "severities: PS5001 'off' by code", text: GROUPED('["Compute"]'), options: { severities: { PS5001: 'off' } }, notCodes: ['PS5001'] },
  { name: "severities: undefined-group 'off' by rule name", text: GROUPED('["Compute"]'), options: { severities: { 'undefined-group': 'off' } }, notCodes: ['PS5001'] },
  { name: 'a group name in another casing is defined', text: GROUPED('["NETWORK", "storage"]'), notCodes: ['PS5001', 'PS5003'] },
  {
    name: 'empty groupNames and an empty policyDefinitionGroups (NetworkSecurityGroupFlowLog_Enabled.json)',
    text: a3(`{
    "policyDefinitionGroups": [],
    "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": [] }]
  }`),
    notCodes: ['PS5001', 'PS5003'],
  },
  { name: 'unused groups are no error', text: GROUPED('[]'), notCodes: ['PS5001', 'PS5002'] },
  {
    name: 'template: groupNames as a deployment-time expression leaves groups possibly used',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "policyDefinitionGroups": [{ "name": "Network" }],
        "policyDefinitions": [
          { "policyDefinitionId": "${D1}", "groupNames": "[variables('groups')]", "policyDefinitionReferenceId": "a" },
          { "policyDefinitionId": "${D1}", "groupNames": ["[variables('group')]"], "policyDefinitionReferenceId": "b" }
        ]
      }
    }`),
    notCodes: ['PS5001', 'PS5003'],
  },
  {
    name: 'template: references as a deployment-time expression leave groups possibly used',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "policyDefinitionGroups": [{ "name": "Network" }],
        "policyDefinitions": "[variables('references')]"
      }
    }`),
    notCodes: ['PS5003'],
  },
  {
    name: 'template: group names as deployment-time expressions are not duplicates',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": {
        "policyDefinitionGroups": [{ "name": "[variables('g')]" }, { "name": "[variables('g')]" }],
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": ["[variables('g')]"] }]
      }
    }`),
    notCodes: ['PS5001', 'PS5002'],
  },
];

runInvalid('PS5', invalid);
runValid('PS5', valid);
