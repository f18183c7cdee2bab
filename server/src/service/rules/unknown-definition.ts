import { isGuid, isTenantDefinitionId } from '../definitionIds';
import type { SetRule } from './types';

export const unknownDefinition: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8006',
    name: 'unknown-definition',
    description:
      'A built-in policy definition ID (tenant level) that the loaded definitions index does not know: usually a typo or a definition that was removed. Only reported when an index of built-in definitions is loaded.',
    defaultSeverity: 'warning',
    messages: { unknown: "No built-in policy definition '{{name}}' is known: check the ID." },
  },
  check(ctx) {
    const catalog = ctx.options.definitions;
    if (!catalog?.hasBuiltIns) return;
    for (const reference of ctx.set.references) {
      // A tenant-level ID, or (policy-as-code framework) a policyDefinitionName that is a built-in's GUID name.
      const node = reference.idNode ?? reference.nameNode;
      if (!node || node.type !== 'string' || ctx.set.isDynamic(node)) continue;
      const value = node.value as string;
      const builtIn = reference.idNode ? isTenantDefinitionId(value) : isGuid(value);
      if (!builtIn || ctx.definitionsOf(reference).length) continue;
      ctx.report({ node, messageId: 'unknown', data: { name: value.slice(value.lastIndexOf('/') + 1) } });
    }
  },
};
