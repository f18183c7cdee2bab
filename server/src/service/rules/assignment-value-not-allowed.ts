import { valueOf } from '../json';
import { fitsParameterType, isAllowedValue, shortJson } from '../parameterValues';
import { holdsPlaceholder } from '../consumers';
import type { ConsumerRule } from './types';
import { declaredParameter, describeTargets, relatedDeclarations } from './support/consumers';

export const assignmentValueNotAllowed: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9204',
    name: 'assignment-value-not-allowed',
    description:
      "A literal value an assignment passes is not one of the `allowedValues` of the set's (or definition's) parameter (strings compare case-insensitively; for an array, every element must be allowed): the service rejects the assignment. Expressions and placeholders are not checked.",
    defaultSeverity: 'error',
    messages: {
      notAllowed: "Parameter '{{name}}' of the assigned {{target}} does not allow {{value}}; allowed: {{allowed}}.",
    },
  },
  check(ctx) {
    for (const resolved of ctx.resolvedConsumers()) {
      if (!resolved.resolved) continue;
      for (const passed of resolved.consumer.parameters) {
        if (!passed.valueNode) continue;
        const declared = declaredParameter(resolved, passed.name);
        // Only when every declaration of it lists its allowed values (one that does not allows anything).
        if (!declared.length || declared.some((d) => !d.parameter.allowedValues)) continue;
        const value = valueOf(passed.valueNode);
        if (holdsPlaceholder(value)) continue;
        // A value of the wrong type is assignment-value-type-mismatch's.
        if (declared.some((d) => d.parameter.type !== undefined && !fitsParameterType(value, d.parameter.type))) continue;
        if (declared.some((d) => isAllowedValue(value, d.parameter.allowedValues!))) continue;
        const declarations = declared.map((d) => d.declaration);
        const allowed = [...new Set(declared.flatMap((d) => d.parameter.allowedValues!.map((v) => shortJson(v, 40))))];
        ctx.report({
          node: passed.valueNode,
          messageId: 'notAllowed',
          data: {
            name: passed.name,
            target: describeTargets(declarations),
            value: shortJson(value),
            allowed: allowed.slice(0, 10).join(', ') + (allowed.length > 10 ? ', …' : ''),
          },
          related: relatedDeclarations(declarations, 'Declared by'),
        });
      }
    }
  },
};
