import type { SetRule } from './types';

const TENANT_DEFINITION = /^\/providers\/[A-Za-z0-9.]+\.Authorization\/policyDefinitions\/[^/]+$/i;

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
      const node = reference.idNode;
      if (!node || node.type !== 'string' || ctx.set.isDynamic(node)) continue;
      const id = node.value as string;
      if (!TENANT_DEFINITION.test(id) || ctx.definitionsOf(reference).length) continue;
      ctx.report({ node, messageId: 'unknown', data: { name: id.slice(id.lastIndexOf('/') + 1) } });
    }
  },
};
