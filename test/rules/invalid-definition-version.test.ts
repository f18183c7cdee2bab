// PS3003 invalid-definition-version: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, defId, a3, a1, type InvalidCase, type ValidCase } from '../support/ruleTester';
import { refWith } from '../support/ruleDocuments/versions';

const invalid: InvalidCase[] = [
  { name: "definitionVersion '1.*'", text: a3(`{ "policyDefinitions": [${refWith('"definitionVersion": |"1.*"|')}] }`), code: 'PS3003' },
  {
    name: "definitionVersion '*.*.*'",
    text: a3(`{ "policyDefinitions": [${refWith('"definitionVersion": |"*.*.*"|')}] }`),
    code: 'PS3003',
  },
  {
    name: "definitionVersion '1.*.0'",
    text: a3(`{ "policyDefinitions": [${refWith('"definitionVersion": |"1.*.0"|')}] }`),
    code: 'PS3003',
  },
  {
    name: "definitionVersion 'latest'",
    text: a3(`{ "policyDefinitions": [${refWith('"definitionVersion": |"latest"|')}] }`),
    code: 'PS3003',
  },
  {
    name: "definitionVersion 'v1.*.*'",
    text: a1(`{ "policyDefinitions": [${refWith('"definitionVersion": |"v1.*.*"|')}] }`),
    code: 'PS3003',
  },
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
];

const valid: ValidCase[] = [
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
];

run('invalid-definition-version', { valid, invalid });
