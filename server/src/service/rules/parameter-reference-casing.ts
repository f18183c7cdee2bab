import type { SetRule } from './types';

export const parameterReferenceCasing: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS7002',
    name: 'parameter-reference-casing',
    description: "A `[parameters('x')]` names a declared parameter in a different casing. The service matches names case-insensitively; write them as declared.",
    defaultSeverity: 'hint',
    messages: { casing: "Parameter '{{name}}' is declared as '{{declared}}'." },
  },
  check(ctx) {
    for (const use of ctx.set.parameterUses) {
      const declared = ctx.set.parametersByLower.get(use.lower);
      if (declared && declared.name !== use.name) {
        ctx.report({ start: use.start, end: use.end, messageId: 'casing', data: { name: use.name, declared: declared.name }, related: [{ node: declared.keyNode, message: 'Declared here' }] });
      }
    }
  },
};
