import type { Node } from '../json';
import type { SetRule } from './types';

export const duplicateReferenceId: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS4001',
    name: 'duplicate-reference-id',
    description: '`policyDefinitionReferenceId` must be unique within the set (compared case-insensitively, as the service does).',
    defaultSeverity: 'error',
    messages: { duplicate: "policyDefinitionReferenceId '{{id}}' is used more than once: each reference needs its own." },
  },
  check(ctx) {
    const seen = new Map<string, Node>();
    for (const reference of ctx.set.references) {
      const node = reference.refIdNode;
      const key = reference.refIdLower;
      if (!node || key === undefined) continue;
      const first = seen.get(key);
      if (first) ctx.report({ node, messageId: 'duplicate', data: { id: node.value }, related: [{ node: first, message: 'First used here' }] });
      else seen.set(key, node);
    }
  },
};
