import { describeDefinition, resolvedReferences } from './referencedDefinitions';
import type { SetRule } from './types';

export const missingDefinitionParameter: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8002',
    name: 'missing-definition-parameter',
    description:
      'The referenced policy definition has a parameter without a `defaultValue` and the reference does not pass it. The service rejects the set.',
    defaultSeverity: 'error',
    messages: {
      missing:
        "The referenced definition {{definition}} requires parameter '{{name}}' (it has no defaultValue): pass it in this reference's parameters.",
    },
  },
  check(ctx) {
    for (const resolved of resolvedReferences(ctx)) {
      if (!resolved.applicable.length) continue;
      const { reference } = resolved;
      if (ctx.set.isDynamic(reference.parametersNode)) continue;
      const passed = new Set(reference.parameterValues.map((v) => v.name.toLowerCase()));
      // Required only where every applicable variant requires it.
      const [first, ...rest] = resolved.applicable;
      for (const [lower, parameter] of first.parameters) {
        if (parameter.hasDefault || passed.has(lower)) continue;
        if (
          rest.some((v) => {
            const other = v.parameters.get(lower);
            return !other || other.hasDefault;
          })
        )
          continue;
        ctx.report({
          node: reference.parametersNode ?? reference.idNode ?? reference.node,
          on: 'key',
          messageId: 'missing',
          data: { name: parameter.name, definition: describeDefinition(resolved), type: parameter.type },
        });
      }
    }
  },
};
