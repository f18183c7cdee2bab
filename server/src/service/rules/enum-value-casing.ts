import type { SetRule } from './types';
import { enumCasingMatch } from './invalid-enum-value';
import { propertyNameOf, schemaErrorsOf } from './util';

export const enumValueCasing: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS2006',
    name: 'enum-value-casing',
    description: "A value matches an allowed value only in a different casing, such as a parameter type 'string' for 'String'. The service accepts it; the canonical casing reads better and matches the documentation.",
    defaultSeverity: 'hint',
    messages: { casing: "Use the canonical casing '{{canonical}}' for '{{property}}'." },
  },
  check(ctx) {
    for (const { error, node } of schemaErrorsOf(ctx, 'enum')) {
      const canonical = enumCasingMatch(node.value, (error.params as { allowedValues: unknown[] }).allowedValues);
      if (canonical) ctx.report({ node, messageId: 'casing', data: { canonical, property: propertyNameOf(node) ?? 'value' } });
    }
  },
};
