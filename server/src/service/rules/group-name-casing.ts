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
    for (const use of ctx.set.groupUses) {
      const group = use.declared;
      if (group && group.name !== use.name) {
        ctx.report({ node: use.node, messageId: 'casing', data: { name: use.name, declared: group.name }, related: [{ node: group.nameNode, message: 'Declared here' }] });
      }
    }
  },
};
