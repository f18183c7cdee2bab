import { items } from '../json';
import type { SetRule } from './types';

export const groupNameCasing: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS5004',
    name: 'group-name-casing',
    description: 'A `groupNames` entry matches a declared group only in a different casing. Group names are compared case-insensitively; write them as declared.',
    defaultSeverity: 'hint',
    messages: { casing: "Group '{{name}}' is declared as '{{declared}}'." },
  },
  check(ctx) {
    const exact = new Set(ctx.set.groups.map((g) => g.name));
    const byLower = new Map(ctx.set.groups.map((g) => [g.name.toLowerCase(), g]));
    for (const reference of ctx.set.references) {
      for (const node of items(reference.groupNamesNode)) {
        if (node.type !== 'string' || exact.has(node.value as string)) continue;
        const group = byLower.get((node.value as string).toLowerCase());
        if (group) ctx.report({ node, messageId: 'casing', data: { name: node.value, declared: group.name }, related: [{ node: group.nameNode, message: 'Declared here' }] });
      }
    }
  },
};
