// PS8002 missing-definition-parameter: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, a3, template, DEF, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { withCatalog, cloud, ref, MULTI, withVariants } from '../support/ruleDocuments/definitions';

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
    name: 'template: a reference whose parameters are a deployment-time expression is not checked for missing ones',
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
];

run('missing-definition-parameter', { valid, invalid });
