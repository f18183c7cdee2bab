import { property, valueOf } from '../json';
import { fitsParameterType } from '../parameterValues';
import { describeJsonType } from './util';
import { isLiteral } from './literal';
import type { SetRule } from './types';

export const defaultValueTypeMismatch: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS6001',
    name: 'default-value-type-mismatch',
    description:
      "A parameter's `defaultValue` does not match its declared `type` (for example an array default for a String parameter). Assignments that rely on the default fail.",
    defaultSeverity: 'warning',
    messages: { mismatch: "defaultValue of '{{parameter}}' is {{actual}}, but the parameter's type is {{type}}." },
  },
  check(ctx) {
    for (const parameter of ctx.set.parameters) {
      const node = property(parameter.node, 'defaultValue');
      if (!parameter.type || !node || !isLiteral(ctx.set, node)) continue;
      const value = valueOf(node);
      if (value === null || fitsParameterType(value, parameter.type)) continue;
      ctx.report({
        node,
        messageId: 'mismatch',
        data: { parameter: parameter.name, actual: describeJsonType(value), type: parameter.type },
      });
    }
  },
};
