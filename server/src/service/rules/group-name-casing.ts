import type { SetRule, Fix, FixContext } from './types';
import { replaceNode } from './support/edits';
import { groupUseAt } from './support/fixes';

export const groupNameCasing: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS5004',
    name: 'group-name-casing',
    description:
      'A `groupNames` entry matches a declared group only in a different casing. Group names are compared case-insensitively; write them as declared.',
    fixable: 'casing',
    defaultSeverity: 'hint',
    messages: { casing: "Group '{{name}}' is declared as '{{declared}}'." },
  },
  check(ctx) {
    for (const use of ctx.set.groupUses) {
      const group = use.declared;
      if (group && group.name !== use.name) {
        ctx.report({
          node: use.node,
          messageId: 'casing',
          data: { name: use.name, declared: group.name },
          related: [{ node: group.nameNode, message: 'Declared here' }],
        });
      }
    }
  },
  fix: fixGroupCasing,
  fixAll({ document }) {
    const edits = document.sets.flatMap((set) =>
      set.groupUses.flatMap((use) => (use.declared && use.declared.name !== use.name ? [replaceNode(use.node, use.declared.name)] : [])),
    );
    return edits.length > 1 ? { title: `Write every group name as declared (${edits.length} in this document)`, edits } : undefined;
  },
};

function fixGroupCasing(ctx: FixContext): Fix[] {
  const found = groupUseAt(ctx);
  const declared = found?.use.declared;
  if (!found || !declared || declared.name === found.use.name) return [];
  return [
    {
      key: `${ctx.start}`,
      title: `Change to '${declared.name}' as declared`,
      edits: [replaceNode(found.use.node, declared.name)],
      preferred: true,
      safe: true,
    },
  ];
}
