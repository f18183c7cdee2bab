// Documents the syntax rules' tests share (test/rules/).
import { defId } from '../ruleTester';

export const REF = `{ "policyDefinitionId": "${defId('d1')}" }`;

/** `{"properties":{"policyDefinitions":[...],"metadata": <depth brackets> }}`, with the first bracket beyond `limit` levels marked. */
export function deep(depth: number, markAt?: number): string {
  const opens = Array.from({ length: depth }, (_, i) => (i + 1 === markAt ? '|[|' : '[')).join('');
  return `{"properties":{"policyDefinitions":[${REF}],"metadata":${opens}${']'.repeat(depth)}}}`;
}
