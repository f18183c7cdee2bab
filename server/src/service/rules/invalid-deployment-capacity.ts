import { readPlan } from '../quota/plan';
import { MAX_CAPACITY } from '../quota/capacity';
import type { DocumentRule } from './types';

export const invalidDeploymentCapacity: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS9101',
    name: 'invalid-deployment-capacity',
    description:
      "A model deployment's sku.capacity is not a positive whole number up to 1,000,000 (1 = 1,000 TPM; TPM changes in steps of 1,000).",
    defaultSeverity: 'error',
    messages: {
      notPositiveInteger: 'sku.capacity must be a positive whole number of units (1 = 1,000 TPM), not {{value}}; {{nearest}}.',
      tooLarge: 'sku.capacity must be at most 1,000,000 units (1,000,000,000 TPM), not {{value}}.',
    },
  },
  check(ctx) {
    if (ctx.kind !== 'deploymentPlan') return;
    for (const d of readPlan(ctx.parsed.root).deployments) {
      const node = d.capacityNode;
      if (!node || d.capacity !== undefined) continue;
      if (node.type === 'number' && (node.value as number) > MAX_CAPACITY) {
        ctx.report({ node, messageId: 'tooLarge', data: { value: String(node.value) } });
        continue;
      }
      const value = node.type === 'string' ? `'${String(node.value)}'` : node.type === 'number' ? String(node.value) : `a ${node.type}`;
      ctx.report({
        node,
        messageId: 'notPositiveInteger',
        data: { value, nearest: node.type === 'number' ? nearestCapacities(node.value as number) : 'the nearest valid value is 1' },
      });
    }
  },
};

/** The valid capacity nearest a number, or both when it lies halfway between two (2.5: 2 and 3). */
function nearestCapacities(value: number): string {
  if (!Number.isFinite(value) || value < 1) return 'the nearest valid value is 1';
  const lower = Math.floor(value);
  const fraction = value - lower;
  if (fraction === 0.5) return `the nearest valid values are ${lower} and ${lower + 1}`;
  return `the nearest valid value is ${fraction < 0.5 ? lower : lower + 1}`;
}
