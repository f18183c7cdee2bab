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
    const exact = new Set(ctx.set.parameters.map((p) => p.name));
    const byLower = new Map(ctx.set.parameters.map((p) => [p.name.toLowerCase(), p]));
    for (const use of ctx.set.parameterUses) {
      if (exact.has(use.name)) continue;
      const declared = byLower.get(use.name.toLowerCase());
      if (declared) {
        ctx.report({ start: use.start, end: use.end, messageId: 'casing', data: { name: use.name, declared: declared.name }, related: [{ node: declared.keyNode, message: 'Declared here' }] });
      }
    }
  },
};
