import { valueOf, jsonTypeOf } from '../json';
import { fitsParameterType } from '../parameterValues';
import { holdsPlaceholder } from '../consumers';
import type { ConsumerRule } from './types';
import { declaredParameter, describeTargets, relatedDeclarations } from './support/consumers';

export const assignmentValueTypeMismatch: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9203',
    name: 'assignment-value-type-mismatch',
    description:
      "A literal value an assignment passes does not match the type of the set's (or definition's) parameter, such as a string for an Array parameter: the service rejects the assignment. A value that is an expression or a placeholder (`[parameters('x')]`, `${x}`, `{x}`) is filled in later and not checked.",
    defaultSeverity: 'error',
    messages: {
      mismatch: "Parameter '{{name}}' of the assigned {{target}} is of type {{type}}, but the value passed is {{actual}}.",
    },
  },
  check(ctx) {
    for (const resolved of ctx.resolvedConsumers()) {
      if (!resolved.resolved) continue;
      for (const passed of resolved.consumer.parameters) {
        if (!passed.valueNode) continue;
        const declared = declaredParameter(resolved, passed.name).filter((d) => d.parameter.type !== undefined);
        if (!declared.length) continue;
        const value = valueOf(passed.valueNode);
        if (holdsPlaceholder(value)) continue;
        if (declared.some((d) => fitsParameterType(value, d.parameter.type!))) continue;
        const declarations = declared.map((d) => d.declaration);
        ctx.report({
          node: passed.valueNode,
          messageId: 'mismatch',
          data: {
            name: passed.name,
            target: describeTargets(declarations),
            type: [...new Set(declared.map((d) => d.parameter.type))].join(' or '),
            actual: `a${/^[aeiou]/.test(jsonTypeOf(value)) ? 'n' : ''} ${jsonTypeOf(value)}`,
          },
          related: relatedDeclarations(declarations, 'Declared by'),
        });
      }
    }
  },
};
