import { definitionParameter, resolvedReferences } from './referencedDefinitions';
import type { SetRule } from './types';
import type { ParameterType } from '../model/policySet';

/** Types a value can flow between unchanged: a DateTime is a string, an Integer is a Float. */
function compatible(from: ParameterType, to: ParameterType): boolean {
  if (from === to) return true;
  if ((from === 'String' || from === 'DateTime') && (to === 'String' || to === 'DateTime')) return true;
  return from === 'Integer' && to === 'Float';
}

export const parameterTypeFlow: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8009',
    name: 'parameter-type-flow',
    description:
      "A set parameter passed as a whole (`[parameters('x')]`) to a definition's parameter of another type, such as a String set parameter for an Array definition parameter. Assignments fail when the value reaches the definition.",
    defaultSeverity: 'warning',
    messages: { mismatch: "Set parameter '{{setParameter}}' is {{setType}}, but the definition's parameter '{{name}}' is {{type}}." },
  },
  check(ctx) {
    const resolvedList = resolvedReferences(ctx);
    if (!resolvedList.length) return;
    const usesByNode = new Map(ctx.set.parameterUses.map((u) => [u.node, u]));
    for (const resolved of resolvedList) {
      for (const value of resolved.reference.parameterValues) {
        const node = value.valueNode;
        const use = node && usesByNode.get(node);
        if (!node || !use || node.type !== 'string') continue;
        // Only a value that is exactly one parameters() call passes the set parameter through unchanged.
        if (!/^\[\[?\s*parameters\s*\(\s*'[^']*'\s*\)\s*\]$/i.test(node.value as string)) continue;
        const setParameter = ctx.set.parametersByLower.get(use.lower);
        const targets = definitionParameter(resolved, value.name);
        if (!setParameter?.type || !targets.length || targets.some((t) => !t.type || compatible(setParameter.type!, t.type))) continue;
        ctx.report({
          start: use.start,
          end: use.end,
          messageId: 'mismatch',
          data: { setParameter: setParameter.name, setType: setParameter.type, name: targets[0].name, type: targets[0].type },
        });
      }
    }
  },
};
