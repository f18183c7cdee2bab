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
    description:
      'A value is not one of those the spec allows: `policyType`, a parameter `type`, a `systemData` identity type. A value that is not text at all is a wrong type (PS2001).',
    defaultSeverity: 'error',
    messages: { enum: "'{{value}}' is not a valid '{{property}}': use one of {{allowed}}." },
  },
  check(ctx) {
    for (const schemaError of schemaErrorsOf(ctx, 'enum')) {
      // Every enum of the schemas is of strings: a value that is not one is PS2001's (its type), not a wrong choice.
      if (typeof schemaError.error.data !== 'string') continue;
      const allowed = (schemaError.error.params as { allowedValues: unknown[] }).allowedValues;
      // Another casing of an allowed value is a hint of its own (enum-value-casing).
      if (enumCasingMatch(schemaError.error.data, allowed)) continue;
      const node = schemaError.node;
      ctx.report({
        node,
        messageId: 'enum',
        data: { value: String(node.value), property: propertyNameOf(node) ?? 'value', allowed: quoteList(allowed.map(String), 10) },
      });
    }
  },
};
