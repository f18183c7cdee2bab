// Documents the limits rules' tests share (test/rules/).
import { defId, a3 } from '../ruleTester';

export const MIB = 1024 * 1024;

export function references(count: number): string {
  return Array.from({ length: count }, (_, i) => `{ "policyDefinitionId": "${defId(`d${i}`)}" }`).join(',\n      ');
}

export function setWithReferences(count: number, marked: boolean): string {
  return a3(`{
    ${marked ? '|"policyDefinitions"|' : '"policyDefinitions"'}: [
      ${references(count)}
    ]
  }`);
}

export function setWithParameters(count: number, marked: boolean): string {
  const declared = Array.from({ length: count }, (_, i) => `"p${i}": { "type": "String", "defaultValue": "x" }`).join(',\n      ');
  const used = Array.from({ length: count }, (_, i) => `"p${i}": { "value": "[parameters('p${i}')]" }`).join(', ');
  return a3(`{
    ${marked ? '|"parameters"|' : '"parameters"'}: {
      ${declared}
    },
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}", "parameters": { ${used} } }]
  }`);
}

/** An A3 document of exactly `bytes` UTF-8 bytes, padded in metadata with `unit` (1 or 2 bytes each). */
export function setOfSize(bytes: number, unit: 'a' | '\u00e9', marked = false): string {
  const head = `${marked ? '|{|' : '{'}
  "id": "/providers/Microsoft.Authorization/policySetDefinitions/big",
  "properties": {
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }],
    "metadata": { "pad": "`;
  const tail = `" }
  }
}`;
  const fixed = Buffer.byteLength(head.replace(/\|/g, '') + tail, 'utf8');
  const unitBytes = Buffer.byteLength(unit, 'utf8');
  const rest = bytes - fixed;
  const padding = unit.repeat(Math.floor(rest / unitBytes)) + 'a'.repeat(rest % unitBytes);
  return head + padding + tail;
}

export function withText(field: 'displayName' | 'description', value: string, marked: boolean): string {
  const json = `"${value}"`;
  return a3(`{
    "${field}": ${marked ? `|${json}|` : json},
    "policyDefinitions": [{ "policyDefinitionId": "${defId('d1')}" }]
  }`);
}
