import type { SetRule, Fix, FixContext } from './types';
import { removeChild } from './support/edits';
import { sameRange, setAt } from './support/fixes';

export const unusedParameter: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS7003',
    name: 'unused-parameter',
    description:
      "A set parameter that no reference uses through `[parameters('x')]`. Assigners are asked for a value that changes nothing.",
    fixable: 'remove',
    defaultSeverity: 'warning',
    messages: { unused: "Parameter '{{name}}' is declared but no reference uses it." },
  },
  check(ctx) {
    if (ctx.set.parameterUsesDynamic) return;
    const used = new Set(ctx.set.parameterUses.map((u) => u.lower));
    for (const parameter of ctx.set.parameters) {
      if (!used.has(parameter.name.toLowerCase()))
        ctx.report({ node: parameter.keyNode, messageId: 'unused', data: { name: parameter.name } });
    }
  },
  fix: removeUnusedParameter,
};

function removeUnusedParameter(ctx: FixContext): Fix[] {
  const found = setAt(ctx);
  if (!found || found.set.parameterUsesDynamic) return [];
  const { set } = found;
  const parameter = set.parameters.find((p) => sameRange(ctx, p.keyNode));
  const lower = parameter?.name.toLowerCase();
  if (!parameter || !set.parametersNode || set.parameterUses.some((u) => u.lower === lower)) return [];
  return [
    {
      key: `${ctx.start}`,
      title: `Remove unused parameter '${parameter.name}'`,
      edits: [removeChild(set.parametersNode, parameter.keyNode.parent!)],
      preferred: true,
      safe: false,
    },
  ];
}
