// PS8001 unknown-definition-parameter: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, template, DEF, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withCatalog, gov, cloud, ref, LOCATIONS } from '../support/ruleDocuments/definitions';

const invalid: InvalidCase[] = [
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
    text: ref(
      DEF.main.replace('Microsoft.Authorization', 'Provider.Authorization').toLowerCase(),
      `"parameters": { ${LOCATIONS}, |"nope"|: { "value": 1 } }`,
    ),
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
    name: 'pinning the latest major: parameters the latest version dropped are unknown',
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
];

const valid: ValidCase[] = [
  {
    name: "definitionVersion '1.*.*-preview' against a definition that has only 1.x.x (43 built-in references)",
    text: ref(DEF.stable, `"definitionVersion": "1.*.*-preview",\n        "parameters": { "effect": { "value": "Audit" } }`),
    options: withCatalog,
    notCodes: ['PS8001', 'PS8005'],
  },
  {
    name: 'a reference pinning an older major passes parameters the latest version dropped (70 built-in references)',
    text: ref(
      DEF.changed,
      `"definitionVersion": "7.*.*",\n        "parameters": { "minPort": { "value": 0 }, "maxPort": { "value": 65535 }, "excludedContainers": { "value": [] } }`,
    ),
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
    text: ref(
      DEF.main,
      `"parameters": { "listOfLocations": { "value": [] }, "effect": { "value": "deny" }, "maxCount": { "value": 10 }, "labelSelector": { "value": { "app": "x" } } }`,
    ),
    options: withCatalog,
    notCodes: ['PS8001', 'PS8002', 'PS8003', 'PS8004'],
  },
  {
    name: 'without a catalog nothing is checked against definitions',
    text: ref(DEF.main, `"definitionVersion": "9.*.*",\n        "parameters": { "nope": { "value": 1 } }`),
    notCodes: ['PS8001', 'PS8002', 'PS8005', 'PS8006'],
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

run('unknown-definition-parameter', { valid, invalid });
