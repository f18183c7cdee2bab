import { fitsParameterType, isAllowedValue, shortJson } from '../parameterValues';
import { isLiteral } from './literal';
import { valueOf } from '../json';
import { definitionParameter, resolvedReferences } from './referencedDefinitions';
import { listOf } from './util';
import type { SetRule } from './types';

export const definitionValueNotAllowed: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8004',
    name: 'definition-value-not-allowed',
    description: "A literal value passed to a definition's parameter is not one of that parameter's `allowedValues`.",
    defaultSeverity: 'error',
    messages: {
      notAllowed: "{{value}} is not an allowed value of parameter '{{name}}' of the referenced definition: use one of {{allowed}}.",
    },
  },
  check(ctx) {
    for (const resolved of resolvedReferences(ctx)) {
      for (const value of resolved.reference.parameterValues) {
        if (!value.valueNode || !isLiteral(ctx.set, value.valueNode)) continue;
        const declared = definitionParameter(resolved, value.name);
        if (!declared.length || declared.some((p) => !p.allowedValues?.length)) continue;
        const literal = valueOf(value.valueNode);
        if (declared.some((p) => isAllowedValue(literal, p.allowedValues!))) continue;
        // A value of the wrong type is definition-parameter-type-mismatch's to report.
        if (declared.some((p) => p.type && !fitsParameterType(literal, p.type) && !(p.type === 'Array'))) continue;
        const allowed = declared[0].allowedValues!.map((v) => shortJson(v, 40));
        ctx.report({
          node: value.valueNode,
          messageId: 'notAllowed',
          data: {
            value: shortJson(literal),
            name: declared[0].name,
            allowed: listOf(allowed, 8),
            allowedValues: declared[0].allowedValues,
          },
        });
      }
    }
  },
};
