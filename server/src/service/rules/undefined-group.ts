import type { Node } from '../json';
import { closestMatch } from '../text';
import type { SetRule, RelatedReport } from './types';

export const undefinedGroup: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS5001',
    name: 'undefined-group',
    description: 'Every `groupNames` entry must name a group declared in `policyDefinitionGroups`; the service rejects the set otherwise.',
    defaultSeverity: 'error',
    messages: {
      undefined: "Group '{{name}}' is not declared in policyDefinitionGroups.",
      undefinedDidYouMean: "Group '{{name}}' is not declared in policyDefinitionGroups. Did you mean '{{suggestion}}'?",
      noGroups: "Group '{{name}}' is not declared: this set has no policyDefinitionGroups.",
    },
  },
  check(ctx) {
    const { set } = ctx;
    if (set.groupsDynamic) return;
    for (const use of set.groupUses) {
      if (use.declared) continue;
      const name = use.name;
      if (!set.groups.length) {
        const related: RelatedReport[] = set.properties ? [{ node: set.properties, message: 'policyDefinitionGroups belongs in these properties' }] : [];
        ctx.report({ node: use.node, messageId: 'noGroups', data: { name }, related });
        continue;
      }
      const suggestion = closestMatch(name, set.groups.map((g) => g.name));
      const related = set.groups.slice(0, 20).map((g) => ({ node: g.nameNode as Node, message: `Declared group '${g.name}'` }));
      ctx.report({ node: use.node, messageId: suggestion ? 'undefinedDidYouMean' : 'undefined', data: { name, suggestion }, related });
    }
  },
};
