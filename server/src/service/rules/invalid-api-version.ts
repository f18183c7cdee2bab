import { property } from '../json';
import type { SetRule } from './types';

export const invalidApiVersion: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS3005',
    name: 'invalid-api-version',
    description: "A version resource's `apiVersion` must be a date `YYYY-MM-DD`; the spec's version for policy operations is `2025-11-01`.",
    defaultSeverity: 'error',
    messages: { shape: "apiVersion '{{value}}' must be a date in YYYY-MM-DD form, such as '2025-11-01'." },
  },
  check(ctx) {
    if (ctx.set.kind !== 'policySetDefinitionVersion') return;
    const node = property(ctx.set.resource, 'apiVersion');
    if (!node || node.type !== 'string' || ctx.set.isDynamic(node)) return;
    const match = /^(\d{4})-(\d{2})-(\d{2})(-preview)?$/.exec(node.value as string);
    const valid = match && Number(match[2]) >= 1 && Number(match[2]) <= 12 && Number(match[3]) >= 1 && Number(match[3]) <= 31;
    if (!valid) ctx.report({ node, messageId: 'shape', data: { value: node.value } });
  },
};
