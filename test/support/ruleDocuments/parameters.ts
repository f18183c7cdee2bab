// Documents the parameters rules' tests share (test/rules/).
import { defId, a3 } from '../ruleTester';

/** A set declaring the given parameters, each used once so that nothing is unused. */
export function withParameters(parameters: string, names: string[] = ['p']): string {
  const uses = names.map((n) => `"${n}": { "value": "[parameters('${n}')]" }`).join(', ');
  return a3(`{
    "parameters": {
      ${parameters}
    },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { ${uses} } }]
  }`);
}
