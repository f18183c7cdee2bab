import type { SetRule } from './types';

export const unusedGroup: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS5003',
    name: 'unused-group',
    description: 'A declared group that no reference names in its `groupNames`. Harmless, but often a leftover or a misspelt group name elsewhere.',
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
};
