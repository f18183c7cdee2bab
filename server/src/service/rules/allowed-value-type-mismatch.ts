import { items, nonStringItems, property, valueOf } from '../json';
import { fitsParameterType } from '../parameterValues';
import { describeJsonType } from './util';
import { isLiteral } from './literal';
import type { SetRule } from './types';

export const allowedValueTypeMismatch: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS6002',
    name: 'allowed-value-type-mismatch',
    description:
      "An `allowedValues` entry does not match the parameter's `type`. For an Array parameter, entries may be arrays or the allowed elements.",
    defaultSeverity: 'warning',
    messages: { mismatch: "Allowed value of '{{parameter}}' is {{actual}}, but the parameter's type is {{type}}." },
  },
  check(ctx) {
    for (const parameter of ctx.set.parameters) {
      // Array parameters list allowed elements, which may be of any type.
      if (!parameter.type || parameter.type === 'Array') continue;
      // A string fits these as it is, and an expression is not checked: only the other values are looked at.
      const allowed = property(parameter.node, 'allowedValues');
      for (const node of parameter.type === 'String' || parameter.type === 'DateTime' ? nonStringItems(allowed) : items(allowed)) {
        if (!isLiteral(ctx.set, node)) continue;
        const value = valueOf(node);
        if (value === null || fitsParameterType(value, parameter.type)) continue;
        ctx.report({
          node,
          messageId: 'mismatch',
          data: { parameter: parameter.name, actual: describeJsonType(value), type: parameter.type },
        });
      }
    }
  },
};
