import { readPlan } from '../quota/plan';
import { MAX_CAPACITY } from '../quota/capacity';
import type { DocumentRule } from './types';

export const invalidDeploymentCapacity: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS9101',
    name: 'invalid-deployment-capacity',
    description: "A model deployment's sku.capacity is not a positive whole number up to 1,000,000 (1 = 1,000 TPM; TPM changes in steps of 1,000).",
    defaultSeverity: 'error',
    messages: {
      notPositiveInteger: "sku.capacity must be a positive whole number of units (1 = 1,000 TPM), not {{value}}; the nearest valid value is {{nearest}}.",
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
      const nearest = node.type === 'number' ? String(Math.max(1, Math.round(node.value as number))) : '1';
      ctx.report({ node, messageId: 'notPositiveInteger', data: { value, nearest } });
    }
  },
};
