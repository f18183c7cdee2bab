import { keyNodeOf, property } from '../json';
import type { SetRule } from './types';

const RESPONSE_ONLY = ['effectiveDefinitionVersion', 'latestDefinitionVersion'];

export const responseOnlyProperty: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS3004',
    name: 'response-only-property',
    description:
      '`effectiveDefinitionVersion` and `latestDefinitionVersion` are filled in by the service in responses requested with `$expand`. In a version resource to deploy they mean nothing: remove them.',
    defaultSeverity: 'warning',
    messages: { responseOnly: "'{{name}}' is response-only (set by the service with $expand): remove it from the resource to deploy." },
  },
  check(ctx) {
    if (ctx.set.kind !== 'policySetDefinitionVersion') return;
    for (const reference of ctx.set.references) {
      for (const name of RESPONSE_ONLY) {
        const value = property(reference.node, name);
        const key = value && keyNodeOf(value);
        if (key) ctx.report({ node: key, messageId: 'responseOnly', data: { name } });
      }
    }
  },
};
