import { fitsParameterType } from '../parameterValues';
import { describeJsonType } from './util';
import { isLiteral } from './literal';
import { valueOf } from '../json';
import { definitionParameter, resolvedReferences } from './referencedDefinitions';
import type { SetRule } from './types';

export const definitionParameterTypeMismatch: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8003',
    name: 'definition-parameter-type-mismatch',
    description: "A literal value passed to a definition's parameter does not match that parameter's type.",
    defaultSeverity: 'error',
    messages: { mismatch: "Parameter '{{name}}' of the referenced definition is {{type}}, but this value is {{actual}}." },
  },
  check(ctx) {
    for (const resolved of resolvedReferences(ctx)) {
      for (const value of resolved.reference.parameterValues) {
        if (!value.valueNode || !isLiteral(ctx.set, value.valueNode)) continue;
        const declared = definitionParameter(resolved, value.name);
        const literal = valueOf(value.valueNode);
        if (!declared.length || literal === null) continue;
        // Wrong only if it fits no variant's type.
        if (declared.some((p) => !p.type || fitsParameterType(literal, p.type))) continue;
        ctx.report({
          node: value.valueNode,
          messageId: 'mismatch',
          data: { name: declared[0].name, type: declared[0].type, actual: describeJsonType(literal) },
        });
      }
    }
  },
};
