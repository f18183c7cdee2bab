import type { SetRule, Fix, FixContext } from './types';
import { replaceExpressionName } from './support/edits';
import { setAt } from './support/fixes';

export const parameterReferenceCasing: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS7002',
    name: 'parameter-reference-casing',
    description:
      "A `[parameters('x')]` names a declared parameter in a different casing. The service matches names case-insensitively; write them as declared.",
    fixable: 'casing',
    defaultSeverity: 'hint',
    messages: { casing: "Parameter '{{name}}' is declared as '{{declared}}'." },
  },
  check(ctx) {
    for (const use of ctx.set.parameterUses) {
      const declared = ctx.set.parametersByLower.get(use.lower);
      if (declared && declared.name !== use.name) {
        ctx.report({
          start: use.start,
          end: use.end,
          messageId: 'casing',
          data: { name: use.name, declared: declared.name },
          related: [{ node: declared.keyNode, message: 'Declared here' }],
        });
      }
    }
  },
  fix: fixParameterReferenceCasing,
  fixAll({ document }) {
    const edits = document.sets.flatMap((set) =>
      set.parameterUses.flatMap((use) => {
        const declared = set.parametersByLower.get(use.lower);
        return declared && declared.name !== use.name ? [replaceExpressionName(use.start, use.end, declared.name)] : [];
      }),
    );
    return edits.length > 1
      ? { title: `Write every parameter reference as declared (${edits.length} in this document)`, edits }
      : undefined;
  },
};

function fixParameterReferenceCasing(ctx: FixContext): Fix[] {
  const found = setAt(ctx);
  const use = found?.set.parameterUses.find((u) => u.start === ctx.start && u.end === ctx.end);
  const declared = use && found?.set.parametersByLower.get(use.lower);
  if (!use || !declared || declared.name === use.name) return [];
  return [
    {
      key: `${use.start}`,
      title: `Change to '${declared.name}' as declared`,
      edits: [replaceExpressionName(use.start, use.end, declared.name)],
      preferred: true,
      safe: true,
    },
  ];
}
