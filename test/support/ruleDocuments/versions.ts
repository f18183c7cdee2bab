// Documents the versions rules' tests share (test/rules/).
import { defId } from '../ruleTester';

export const REF = `{ "policyDefinitionId": "${defId('d1')}" }`;

export const refWith = (field: string) => `{ "policyDefinitionId": "${defId('d1')}", ${field} }`;

export const setResource = (properties: string, extra = '') => `    {
      "type": "Microsoft.Authorization/policySetDefinitions",
      "apiVersion": "2025-11-01",
      "name": "mySet",${extra}
      "properties": ${properties}
    }`;
