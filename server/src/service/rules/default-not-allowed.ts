import { property, valueOf } from '../json';
import { isAllowedValue, shortJson } from '../parameterValues';
import { isLiteral } from './literal';
import type { SetRule } from './types';

export const defaultNotAllowed: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS6003',
    name: 'default-not-allowed',
    description:
      "A parameter's `defaultValue` is not one of its `allowedValues` (strings compare case-insensitively; for arrays, every element must be allowed).",
    defaultSeverity: 'warning',
    messages: { notAllowed: "defaultValue {{value}} of '{{parameter}}' is not one of its allowedValues." },
  },
  check(ctx) {
    for (const parameter of ctx.set.parameters) {
      const defaultNode = property(parameter.node, 'defaultValue');
      const allowedNode = property(parameter.node, 'allowedValues');
      if (!defaultNode || !allowedNode || allowedNode.type !== 'array' || !allowedNode.children?.length) continue;
      if (!isLiteral(ctx.set, defaultNode) || !isLiteral(ctx.set, allowedNode)) continue;
      const value = valueOf(defaultNode);
      // `"defaultValue": null` declares no default, as for default-value-type-mismatch.
      if (value === null) continue;
      if (isAllowedValue(value, valueOf(allowedNode) as unknown[])) continue;
      ctx.report({
        node: defaultNode,
        messageId: 'notAllowed',
        data: { value: shortJson(value), parameter: parameter.name },
        related: [{ node: allowedNode, message: 'allowedValues' }],
      });
    }
  },
};
