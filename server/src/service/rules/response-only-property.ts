import { keyNodeOf, property } from '../json';
import type { SetRule, Fix, FixContext } from './types';
import { removeChild } from './support/edits';
import { nodeAt } from './support/fixes';

const RESPONSE_ONLY = ['effectiveDefinitionVersion', 'latestDefinitionVersion'];

export const responseOnlyProperty: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS3004',
    name: 'response-only-property',
    description:
      '`effectiveDefinitionVersion` and `latestDefinitionVersion` are filled in by the service in responses requested with `$expand`. In a version resource to deploy they mean nothing: remove them.',
    fixable: 'remove',
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
  fix: removeResponseOnly,
};

function removeResponseOnly(ctx: FixContext): Fix[] {
  const key = nodeAt(ctx, 'string');
  const owner = key?.parent;
  if (!key || owner?.type !== 'property' || owner.children?.[0] !== key || !owner.parent) return [];
  const name = key.value as string;
  if (name !== 'effectiveDefinitionVersion' && name !== 'latestDefinitionVersion') return [];
  return [{ key: `${ctx.start}`, title: `Remove '${name}'`, edits: [removeChild(owner.parent, owner)], preferred: true, safe: true }];
}
