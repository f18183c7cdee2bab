// PS5001 undefined-group: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { DefinitionCatalog } from '#service';
import { run, a3, a1, template, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { D1, GROUPED, catalogWithSourceSet, IMPORTING, MANY_GROUPS } from '../support/ruleDocuments/groups';

const invalid: InvalidCase[] = [
  {
    name: 'a group neither declared nor imported from a known set',
    text: IMPORTING('["Own", "Imported", |"Missing"|]'),
    options: { definitions: catalogWithSourceSet() },
    code: 'PS5001',
  },
  {
    name: 'the related declarations are the first 20 of many',
    text: MANY_GROUPS('[|"Undeclared-group"|]'),
    code: 'PS5001',
    related: Array.from({ length: 20 }, (_, i) => `"G${i}"`),
  },
  {
    name: 'undefined group with a suggestion, related to every declared group',
    text: GROUPED('["Network", "Storage", |"Storag"|]'),
    code: 'PS5001',
    data: { suggestion: 'Storage', messageId: 'undefinedDidYouMean' },
    related: ['"Network"', '"Storage"'],
    message: /Did you mean 'Storage'/,
    fixes: [
      { title: "Change to 'Storage'", output: GROUPED('["Network", "Storage", "Storage"]'), preferred: true },
      {
        title: "Declare group 'Storag' in policyDefinitionGroups",
        output: GROUPED('["Network", "Storage", "Storag"]').replace(
          '{ "name": "Storage" }\n',
          '{ "name": "Storage" },\n      { "name": "Storag" }\n',
        ),
      },
    ],
  },
  {
    name: 'undefined group without a close match, CRLF',
    text: GROUPED('["Network", "Storage", |"Compute"|]'),
    code: 'PS5001',
    crlf: true,
    data: { messageId: 'undefined' },
    related: ['"Network"', '"Storage"'],
    // Declared as its neighbours are written: on a line of its own, with the document's CRLF.
    fixes: [
      {
        title: "Declare group 'Compute' in policyDefinitionGroups",
        output: GROUPED('["Network", "Storage", "Compute"]').replace(
          '{ "name": "Storage" }\n',
          '{ "name": "Storage" },\n      { "name": "Compute" }\n',
        ),
        preferred: true,
      },
    ],
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
];

const valid: ValidCase[] = [
  {
    name: 'groups imported from a known set are declared (importPolicyDefinitionGroups), in any casing',
    text: IMPORTING('["Own", "imported"]'),
    options: { definitions: catalogWithSourceSet() },
    notCodes: ['PS5001'],
  },
  {
    name: 'groups imported with no known definitions at all: nothing is said',
    text: IMPORTING('["Own", "Anything"]'),
    notCodes: ['PS5001'],
  },
  {
    name: 'groups imported from a set that is not known: which groups it brings is not known, nothing is said',
    text: IMPORTING('["Own", "Anything"]'),
    options: { definitions: new DefinitionCatalog() },
    notCodes: ['PS5001'],
  },
  {
    name: 'template: policyDefinitionGroups as a deployment-time expression leaves every group possibly declared',
    text: template(
      `    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "grouped",
      "properties": {
        "policyDefinitionGroups": "[parameters('groups')]",
        "policyDefinitions": [{ "policyDefinitionId": "${D1}", "groupNames": ["Anything"] }]
      }
    }`,
      '{ "groups": { "type": "array" } }',
    ),
    notCodes: ['PS5001'],
  },
  {
    name: "severities: PS5001 'off' by code",
    text: GROUPED('["Compute"]'),
    options: { severities: { PS5001: 'off' } },
    notCodes: ['PS5001'],
  },
  {
    name: "severities: undefined-group 'off' by rule name",
    text: GROUPED('["Compute"]'),
    options: { severities: { 'undefined-group': 'off' } },
    notCodes: ['PS5001'],
  },
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

run('undefined-group', { valid, invalid });
