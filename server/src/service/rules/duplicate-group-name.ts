import type { Node } from '../json';
import type { SetRule } from './types';

export const duplicateGroupName: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS5002',
    name: 'duplicate-group-name',
    description: 'Group names must be unique within `policyDefinitionGroups` (compared case-insensitively).',
    defaultSeverity: 'error',
    messages: { duplicate: "Group '{{name}}' is declared more than once." },
  },
  check(ctx) {
    const seen = new Map<string, Node>();
    for (const group of ctx.set.groups) {
      const key = group.name.toLowerCase();
      const first = seen.get(key);
      if (first) ctx.report({ node: group.nameNode, messageId: 'duplicate', data: { name: group.name }, related: [{ node: first, message: 'First declared here' }] });
      else seen.set(key, group.nameNode);
    }
  },
};
