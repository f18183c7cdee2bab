import type { SetRule, Fix, FixContext } from './types';
import { removeChild } from './support/edits';
import { sameRange, setAt } from './support/fixes';

export const unusedGroup: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS5003',
    name: 'unused-group',
    description:
      'A declared group that no reference names in its `groupNames`. Harmless, but often a leftover or a misspelt group name elsewhere.',
    fixable: 'remove',
    defaultSeverity: 'hint',
    messages: { unused: "Group '{{name}}' is not used by any reference." },
  },
  check(ctx) {
    const { set } = ctx;
    // A deployment-time expression could name any group: then nothing is known to be unused.
    if (set.groupUsesDynamic) return;
    const used = new Set(set.groupUses.map((u) => u.lower));
    for (const group of set.groups) {
      if (!used.has(group.name.toLowerCase())) ctx.report({ node: group.nameNode, messageId: 'unused', data: { name: group.name } });
    }
  },
  fix: removeUnusedGroup,
};

function removeUnusedGroup(ctx: FixContext): Fix[] {
  const found = setAt(ctx);
  if (!found || found.set.groupUsesDynamic) return [];
  const { set } = found;
  const group = set.groups.find((g) => sameRange(ctx, g.nameNode));
  const lower = group?.name.toLowerCase();
  if (!group || !set.groupsNode || set.groupUses.some((u) => u.lower === lower)) return [];
  return [
    {
      key: `${ctx.start}`,
      title: `Remove unused group '${group.name}'`,
      edits: [removeChild(set.groupsNode, group.node)],
      preferred: true,
      safe: false,
    },
  ];
}
