import type { Node } from '../json';
import type { SetRule, Fix, FixContext } from './types';
import { valueOf } from '../json';
import { removeChild } from './support/edits';
import { sameRange, setAt } from './support/fixes';

export const duplicateGroupName: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS5002',
    name: 'duplicate-group-name',
    description: 'Group names must be unique within `policyDefinitionGroups` (compared case-insensitively).',
    fixable: 'remove',
    defaultSeverity: 'error',
    messages: { duplicate: "Group '{{name}}' is declared more than once." },
  },
  check(ctx) {
    const seen = new Map<string, Node>();
    for (const group of ctx.set.groups) {
      const key = group.name.toLowerCase();
      const first = seen.get(key);
      if (first)
        ctx.report({
          node: group.nameNode,
          messageId: 'duplicate',
          data: { name: group.name },
          related: [{ node: first, message: 'First declared here' }],
        });
      else seen.set(key, group.nameNode);
    }
  },
  fix: removeDuplicateGroup,
};

/** A group declared again: removing the later declaration keeps the first; obvious only when the two are the same. */
function removeDuplicateGroup(ctx: FixContext): Fix[] {
  const set = setAt(ctx)?.set;
  const group = set?.groups.find((g) => sameRange(ctx, g.nameNode));
  const first = group && set?.groupsByLower.get(group.name.toLowerCase());
  if (!set?.groupsNode || !group || !first || first === group) return [];
  const same = JSON.stringify(valueOf(group.node)) === JSON.stringify(valueOf(first.node));
  // Only a declaration the same as the first is removed without a person's choice: nothing is lost.
  return [
    {
      key: `${ctx.start}`,
      title: `Remove this repeated declaration of group '${group.name}'`,
      edits: [removeChild(set.groupsNode, group.node)],
      preferred: same,
      safe: same,
    },
  ];
}
