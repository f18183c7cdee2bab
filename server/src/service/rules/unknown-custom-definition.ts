import { customDefinitionName } from '../definitionIds';
import type { SetRule } from './types';

export const unknownCustomDefinition: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8010',
    name: 'unknown-custom-definition',
    description:
      'A reference names a custom policy definition (at management group or subscription scope, or by an expression that ends with its name) that none of the loaded custom definitions has: the set fails to deploy until the definition exists. Definitions are matched by name; the scope, usually a placeholder, takes no part. Only reported when at least one custom definition is loaded (definition files linted alongside, `--definitions`, the workspace).',
    defaultSeverity: 'warning',
    messages: { unknown: "No custom policy definition '{{name}}' is among the {{count}} loaded: deploy it with the set, or check the name." },
  },
  check(ctx) {
    const catalog = ctx.options.definitions;
    if (!catalog?.customCount) return;
    for (const reference of ctx.set.references) {
      const node = reference.idNode;
      if (!node || node.type !== 'string') continue;
      const name = customDefinitionName(node.value as string);
      if (name === undefined || ctx.definitionsOf(reference).length) continue;
      ctx.report({ node, messageId: 'unknown', data: { name, count: catalog.customCount } });
    }
  },
};
