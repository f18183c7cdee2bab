import { describeDefinition, resolvedReferences } from './referencedDefinitions';
import type { SetRule } from './types';

export const deprecatedDefinition: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8007',
    name: 'deprecated-definition',
    description: 'The referenced policy definition is marked deprecated: look for its replacement.',
    defaultSeverity: 'info',
    messages: { deprecated: 'The referenced definition {{definition}} is deprecated.' },
  },
  check(ctx) {
    for (const resolved of resolvedReferences(ctx)) {
      if (resolved.variants.every((v) => v.deprecated)) {
        ctx.report({ node: resolved.reference.idNode, messageId: 'deprecated', data: { definition: describeDefinition(resolved) } });
      }
    }
  },
};
