import type { SetRule } from './types';
import { propertyNameOf, quoteList, schemaErrorsOf } from './util';

export function enumCasingMatch(value: unknown, allowed: unknown[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return allowed.find((a): a is string => typeof a === 'string' && a.toLowerCase() === lower);
}

export const invalidEnumValue: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS2003',
    name: 'invalid-enum-value',
    description: 'A value is not one of those the spec allows: `policyType`, a parameter `type`, a `systemData` identity type.',
    defaultSeverity: 'error',
    messages: { enum: "'{{value}}' is not a valid '{{property}}': use one of {{allowed}}." },
  },
  check(ctx) {
    for (const { error, node } of schemaErrorsOf(ctx, 'enum')) {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      if (enumCasingMatch(node.value, allowed)) continue;
      ctx.report({
        node,
        messageId: 'enum',
        data: { value: String(node.value), property: propertyNameOf(node) ?? 'value', allowed: quoteList(allowed.map(String), 10) },
      });
    }
  },
};
