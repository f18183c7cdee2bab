// Documents the parameter-reference rules' tests share (test/rules/).
import { defId, a3 } from '../ruleTester';

export const D1 = defId('d1');

/** A set declaring `effect` (String) and `list` (Array), whose one reference passes `value` to the definition's `p`. */
export function passing(value: string, declared = `"effect": { "type": "String" }, "list": { "type": "Array" }`): string {
  return a3(`{
    "parameters": { ${declared} },
    "policyDefinitions": [
      {
        "policyDefinitionId": "${D1}",
        "parameters": {
          "used": { "value": "[concat(parameters('effect'), string(parameters('list')))]" },
          "p": { "value": ${value} }
        }
      }
    ]
  }`);
}

export const setResource = (properties: string) => `    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",
      "properties": ${properties}
    }`;

/** A nested deployment (Microsoft.Resources/deployments) whose inline template holds the given resources. */
export const nestedDeployment = (resources: string) => `    {
      "type": "Microsoft.Resources/deployments",
      "apiVersion": "2022-09-01",
      "name": "nested",
      "properties": {
        "mode": "Incremental",
        "template": {
          "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
          "contentVersion": "1.0.0.0",
          "resources": [
${resources}
          ]
        }
      }
    }`;
