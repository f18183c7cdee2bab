// PS4xxx: policy definition references.
import { runInvalid, runValid, a1, a3, template, policyAsCode, defId, type InvalidCase, type ValidCase } from './rules-harness';

const D1 = defId('d1');
const D2 = defId('d2');

const invalid: InvalidCase[] = [
  {
    name: 'reference ids compare case-insensitively: the second is marked, related to the first',
    text: a3(`{
    "policyDefinitions": [
      { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "auditVMs" },
      { "policyDefinitionId": "${D2}", "policyDefinitionReferenceId": |"AuditVMs"| }
    ]
  }`),
    code: 'PS4001',
    related: ['"auditVMs"'],
    data: { id: 'AuditVMs' },
  },
  {
    name: 'reference ids with spaces, brackets, quotes and escapes',
    text: a3(`{
    "policyDefinitions": [
      { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "CIS 1.1 (a), b & c / [d]: e's \\u007c f" },
      { "policyDefinitionId": "${D2}", "policyDefinitionReferenceId": |"cis 1.1 (A), B & C / [D]: E's \\u007C F"| }
    ]
  }`),
    code: 'PS4001',
    related: [`"CIS 1.1 (a), b & c / [d]: e's \\u007c f"`],
  },
  {
    name: 'a reference id used three times is reported twice, always related to the first (CRLF)',
    text: a1(`{
    "policyDefinitions": [
      { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "r" },
      { "policyDefinitionId": "${D2}", "policyDefinitionReferenceId": "r" },
      { "policyDefinitionId": "${defId('d3')}", "policyDefinitionReferenceId": |"r"| }
    ]
  }`),
    code: 'PS4001',
    crlf: true,
    count: 2,
    related: ['"r"'],
  },
  {
    name: 'same definition twice without reference ids: the key of the first, related to the second',
    text: a3(`{
    "policyDefinitions": [
      { |"policyDefinitionId"|: "${D1}" },
      { "policyDefinitionId": "${D1}" }
    ]
  }`),
    code: 'PS4002',
    count: 2,
    related: [`"${D1}"`],
    data: { count: 2 },
  },
  {
    name: 'the same definition 22 times without reference ids: each related to the first 20 others',
    text: a3(`{ "policyDefinitions": [{ |"policyDefinitionId"|: "${D1}" }, ${Array.from({ length: 21 }, () => `{ "policyDefinitionId": "${D1}" }`).join(', ')}] }`),
    code: 'PS4002',
    count: 22,
    related: Array.from({ length: 20 }, () => `"${D1}"`),
    data: { count: 22 },
  },
  {
    name: 'same definition twice, in different casing, only one without a reference id',
    text: a3(`{
    "policyDefinitions": [
      { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "first" },
      {
        |"policyDefinitionId"|: "${D1.toUpperCase()}"
      }
    ]
  }`),
    code: 'PS4002',
    related: [`"${D1}"`],
  },
  {
    name: 'not a resource ID',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": |"d1"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'definition ID without a name',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": |"/providers/Microsoft.Authorization/policyDefinitions/"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'definition ID whose name is a slash',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": |"/providers/Microsoft.Authorization/policyDefinitions//"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'definition ID with a trailing slash',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": |"${D1}/"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'definitions do not live at resource group scope',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": |"/subscriptions/0000/resourceGroups/rg/providers/Microsoft.Authorization/policyDefinitions/x"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'an assignment ID is not a definition ID',
    text: a1(`{ "policyDefinitions": [{ "policyDefinitionId": |"/providers/Microsoft.Authorization/policyAssignments/x"| }] }`),
    code: 'PS4003',
  },
  {
    name: 'a policy-level literal in a template ("[[...") is not an ID either',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": { "policyDefinitions": [{ "policyDefinitionId": |"[[concat('a', 'b')]"| }] }
    }`),
    code: 'PS4003',
  },
  {
    name: 'policy-as-code: policyDefinitionName and policyDefinitionId at once, on the name',
    text: policyAsCode(`"policyDefinitions": [
      { "policyDefinitionReferenceId": "a", |"policyDefinitionName"|: "deny-rdp", "policyDefinitionId": "/providers/Microsoft.Management/managementGroups/root/providers/Microsoft.Authorization/policyDefinitions/deny-rdp" }
    ]`),
    code: 'PS4004',
    related: ['"/providers/Microsoft.Management/managementGroups/root/providers/Microsoft.Authorization/policyDefinitions/deny-rdp"'],
  },
];

const valid: ValidCase[] = [
  {
    name: 'one reference to a definition needs no policyDefinitionReferenceId (PS4002 is about a definition referenced twice)',
    text: a3(`{ "policyDefinitions": [{ "policyDefinitionId": "${D1}" }, { "policyDefinitionId": "${D2}" }] }`),
    notCodes: ['PS4002'],
  },
  {
    name: 'a set resource inside a template is no policy-as-code file: PS4004 says nothing of a policyDefinitionName there',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": { "policyDefinitions": [{ "policyDefinitionName": "deny-rdp", "policyDefinitionId": "${D1}" }] }
    }`),
    notCodes: ['PS4004'],
  },
  {
    name: 'policy-as-code: a reference naming its definition by policyDefinitionName alone',
    text: policyAsCode(`"policyDefinitions": [{ "policyDefinitionReferenceId": "a", "policyDefinitionName": "deny-rdp" }]`),
    notCodes: ['PS4004'],
  },
  {
    name: 'IDs at tenant, subscription and management group scope, set IDs, any namespace and casing',
    text: a3(`{ "policyDefinitions": [
      { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "1" },
      { "policyDefinitionId": "/subscriptions/00000000-0000-0000-0000-000000000001/providers/Microsoft.Authorization/policyDefinitions/custom", "policyDefinitionReferenceId": "2" },
      { "policyDefinitionId": "/providers/Microsoft.Management/managementGroups/mg-1/providers/Microsoft.Authorization/policyDefinitions/custom", "policyDefinitionReferenceId": "3" },
      { "policyDefinitionId": "/providers/Microsoft.Authorization/policySetDefinitions/other-set", "policyDefinitionReferenceId": "4" },
      { "policyDefinitionId": "/providers/Provider.Authorization/policyDefinitions/x", "policyDefinitionReferenceId": "5" },
      { "policyDefinitionId": "/PROVIDERS/microsoft.authorization/POLICYDEFINITIONS/y", "policyDefinitionReferenceId": "6" }
    ] }`),
    notCodes: ['PS4001', 'PS4002', 'PS4003'],
  },
  {
    name: 'the same definition twice with distinct reference ids',
    text: a3(`{ "policyDefinitions": [
      { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "a" },
      { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "b" }
    ] }`),
    notCodes: ['PS4001', 'PS4002'],
  },
  {
    name: 'a 277-character reference id with special characters',
    text: a3(`{ "policyDefinitions": [
      { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "${'A (b), c & d / [e]: f\'s '.repeat(11)}xy" }
    ] }`),
    notCodes: ['PS4001', 'PS4003'],
  },
  {
    name: 'template: two sets may use the same reference ids',
    text: template(
      ['setA', 'setB']
        .map(
          (name) => `    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "${name}",
      "properties": { "policyDefinitions": [{ "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "same" }] }
    }`,
        )
        .join(',\n'),
    ),
    notCodes: ['PS4001', 'PS4002'],
  },
  {
    name: 'template: IDs and reference ids as deployment-time expressions',
    text: template(`    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": { "policyDefinitions": [
        { "policyDefinitionId": "[resourceId('Microsoft.Authorization/policyDefinitions', 'x')]", "policyDefinitionReferenceId": "[variables('ref')]" },
        { "policyDefinitionId": "[extensionResourceId(managementGroup().id, 'Microsoft.Authorization/policyDefinitions', 'y')]", "policyDefinitionReferenceId": "[variables('ref')]" },
        { "policyDefinitionId": "[concat('/providers/Microsoft.Authorization/policyDefinitions/', variables('z'))]" },
        { "policyDefinitionId": "[concat('/providers/Microsoft.Authorization/policyDefinitions/', variables('z'))]" }
      ] }
    }`),
    notCodes: ['PS4001', 'PS4002', 'PS4003'],
  },
];

runInvalid('PS4', invalid);
runValid('PS4', valid);
