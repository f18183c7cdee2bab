import { closestMatch } from '../text';
import type { SetRule } from './types';

export const undefinedParameter: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS7001',
    name: 'undefined-parameter',
    description: "Every `[parameters('x')]` in a reference's parameter values, also inside larger expressions, must name a parameter declared in the set's `parameters`.",
    defaultSeverity: 'error',
    messages: {
      undefined: "Parameter '{{name}}' is not declared in the set's parameters.",
      undefinedDidYouMean: "Parameter '{{name}}' is not declared in the set's parameters. Did you mean '{{suggestion}}'?",
    },
  },
  check(ctx) {
    const { set } = ctx;
    // Parameters made at deployment time as a whole name nothing we can know; one declared by an expression still has its name.
    if (set.isDynamic(set.parametersNode)) return;
    for (const use of set.parameterUses) {
      if (set.parametersByLower.has(use.lower)) continue;
      const suggestion = closestMatch(use.name, set.parameters.map((p) => p.name));
      const related = set.parameters.slice(0, 20).map((p) => ({ node: p.keyNode, message: `Declared parameter '${p.name}'` }));
      ctx.report({ start: use.start, end: use.end, messageId: suggestion ? 'undefinedDidYouMean' : 'undefined', data: { name: use.name, suggestion }, related });
    }
  },
};
