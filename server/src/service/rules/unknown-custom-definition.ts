import { customDefinitionName, isGuid } from '../definitionIds';
import type { SetRule } from './types';

export const unknownCustomDefinition: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8010',
    name: 'unknown-custom-definition',
    description:
      'A reference names a custom policy definition (at management group or subscription scope, by an expression that ends with its name, or by a `policyDefinitionName` that is not a GUID) that none of the loaded custom definitions has: the set fails to deploy until the definition exists. Definitions are matched by name; the scope, usually a placeholder, takes no part. Only reported when at least one custom definition is loaded (definition files linted alongside, `--definitions`, the workspace), or when the reference names one in a definition file that could not be read.',
    defaultSeverity: 'warning',
    messages: {
      unknown: "No custom policy definition '{{name}}' is among the {{count}} loaded: deploy it with the set, or check the name.",
      unreadable:
        "Custom policy definition '{{name}}' looks to be in '{{file}}', which could not be read ({{problem}}): fix that file, and this reference is checked against it.",
    },
  },
  check(ctx) {
    const catalog = ctx.options.definitions;
    if (!catalog?.customCount && !catalog?.unreadableCount) return;
    for (const reference of ctx.set.references) {
      // By ID, or (policy-as-code framework) by a policyDefinitionName that is not a built-in's GUID name.
      const node = reference.idNode ?? reference.nameNode;
      if (!node || node.type !== 'string') continue;
      const value = node.value as string;
      const name = reference.idNode ? customDefinitionName(value) : isGuid(value) ? undefined : value;
      if (name === undefined || ctx.definitionsOf(reference).length) continue;
      const broken = catalog.unreadable(name);
      if (broken) ctx.report({ node, messageId: 'unreadable', data: { name, file: broken.source, problem: broken.problem } });
      // Only files that could not be read (a generator's template, say): nothing known to say it is missing.
      else if (catalog.customCount) ctx.report({ node, messageId: 'unknown', data: { name, count: catalog.customCount } });
    }
  },
};
