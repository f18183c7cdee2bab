import type { SetRule } from './types';

export const unusedParameter: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS7003',
    name: 'unused-parameter',
    description: "A set parameter that no reference uses through `[parameters('x')]`. Assigners are asked for a value that changes nothing.",
    defaultSeverity: 'warning',
    messages: { unused: "Parameter '{{name}}' is declared but no reference uses it." },
  },
  check(ctx) {
    if (ctx.set.parameterUsesDynamic) return;
    const used = new Set(ctx.set.parameterUses.map((u) => u.lower));
    for (const parameter of ctx.set.parameters) {
      if (!used.has(parameter.name.toLowerCase())) ctx.report({ node: parameter.keyNode, messageId: 'unused', data: { name: parameter.name } });
    }
  },
};
