// PS4001 duplicate-reference-id: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, a3, a1, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { D1, D2 } from '../support/ruleDocuments/references';

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
];

const valid: ValidCase[] = [
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
      { "policyDefinitionId": "${D1}", "policyDefinitionReferenceId": "${"A (b), c & d / [e]: f's ".repeat(11)}xy" }
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

run('duplicate-reference-id', { valid, invalid });
