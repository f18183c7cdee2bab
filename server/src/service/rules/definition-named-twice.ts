import { propertyIgnoreCase } from '../json';
import type { SetRule } from './types';

export const definitionNamedTwice: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS4004',
    name: 'definition-named-twice',
    description:
      "In the policy-as-code framework's sets, a reference names its definition by `policyDefinitionId` or by `policyDefinitionName` (the definition's name), never both: the framework refuses a reference with both, as they can disagree.",
    defaultSeverity: 'error',
    messages: {
      both: "A reference names its definition by 'policyDefinitionId' and by 'policyDefinitionName': keep one (the ID for a built-in, the name for a custom definition).",
    },
  },
  check(ctx) {
    if (!ctx.set.policyAsCode) return;
    for (const reference of ctx.set.references) {
      if (!reference.idNode || !reference.nameNode) continue;
      const key = propertyIgnoreCase(reference.node, 'policyDefinitionName');
      if (key)
        ctx.report({ node: key, on: 'key', messageId: 'both', related: [{ node: reference.idNode, message: 'policyDefinitionId' }] });
    }
  },
};
