import { propertyIgnoreCase } from '../json';
import type { SetRule } from './types';
import { propertyNameOf, schemaErrorsOf } from './util';

export const missingRequiredProperty: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS2002',
    name: 'missing-required-property',
    description:
      'A required property is missing: `policyDefinitions` in the set, `policyDefinitionId` in each reference, `name` in each group, `type` in each parameter, `name` and `properties` in the version resource.',
    defaultSeverity: 'error',
    messages: {
      missing: "Missing required property '{{property}}'{{where}}.",
      missingDefinition:
        "Missing 'policyDefinitionId' or 'policyDefinitionName'{{where}}: a reference names its definition by one of them.",
    },
  },
  check(ctx) {
    for (const { error, node } of schemaErrorsOf(ctx, 'required')) {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      // Present in another casing: property-name-casing says so.
      if (propertyIgnoreCase(node, missing)) continue;
      const owner = propertyNameOf(node);
      ctx.report({
        node,
        on: 'key',
        messageId: ctx.set.policyAsCode && missing === 'policyDefinitionId' ? 'missingDefinition' : 'missing',
        data: { property: missing, where: owner ? ` in '${owner}'` : node.parent ? '' : ' at the top level' },
      });
    }
  },
};
