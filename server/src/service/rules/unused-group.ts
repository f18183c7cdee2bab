import { items } from '../json';
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
    const used = new Set<string>();
    for (const reference of set.references) {
      for (const node of items(reference.groupNamesNode)) {
        if (node.type !== 'string') continue;
        // A deployment-time expression could name any group: then nothing is known to be unused.
        if (set.isDynamic(node)) return;
        used.add((node.value as string).toLowerCase());
      }
      if (reference.groupNamesNode && set.isDynamic(reference.groupNamesNode)) return;
    }
    for (const group of set.groups) {
      if (!used.has(group.name.toLowerCase())) ctx.report({ node: group.nameNode, messageId: 'unused', data: { name: group.name } });
    }
  },
};
