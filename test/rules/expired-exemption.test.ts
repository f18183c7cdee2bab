// PS9208 expired-exemption: the documents it must pass (valid) and the ones it must report, with the code and the exact range (invalid).
import { run, type InvalidCase, type ValidCase } from '../support/ruleTester';

const NOW = { now: Date.parse('2026-06-01T00:00:00Z') };

function exemption(expiresOn: string): string {
  return `{
  "type": "Microsoft.Authorization/policyExemptions",
  "apiVersion": "2022-07-01-preview",
  "name": "waiver",
  "properties": {
    "policyAssignmentId": "/providers/Microsoft.Management/managementGroups/contoso/providers/Microsoft.Authorization/policyAssignments/tags",
    "exemptionCategory": "Waiver",
    "expiresOn": ${expiresOn}
  }
}`;
}

const invalid: InvalidCase[] = [
  {
    name: 'expired before the clock',
    text: exemption('|"2026-05-31T23:59:59Z"|'),
    code: 'PS9208',
    options: NOW,
    data: { date: '2026-05-31T23:59:59Z' },
  },
  {
    name: "the framework's exemption list",
    text: `{
  "exemptions": [
    { "name": "a", "exemptionCategory": "Mitigated", "policyAssignmentId": "/x/providers/Microsoft.Authorization/policyAssignments/a", "expiresOn": "2030-01-01" },
    { "name": "b", "exemptionCategory": "Waiver", "policyAssignmentId": "/x/providers/Microsoft.Authorization/policyAssignments/a", "expiresOn": |"2025-01-01"| }
  ]
}`,
    code: 'PS9208',
    options: NOW,
  },
];

const valid: ValidCase[] = [
  { name: 'expires after the clock', text: exemption('"2026-06-01T00:00:01Z"'), notCodes: ['PS9208'], options: NOW },
  { name: 'a placeholder', text: exemption('"${expiry}"'), notCodes: ['PS9208'], options: NOW },
  { name: 'not a date (the schema’s matter)', text: exemption('"soon"'), notCodes: ['PS9208'], options: NOW },
];

run('expired-exemption', { valid, invalid });
