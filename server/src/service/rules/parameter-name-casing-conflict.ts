import { mayHaveCaseVariantKeys, type Node } from '../json';
import type { SetRule } from './types';

export const parameterNameCasingConflict: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS6008',
    name: 'parameter-name-casing-conflict',
    description:
      'Two set parameters, or two parameters passed in one reference, whose names differ only in casing (`effect` and `Effect`). The service reads parameter names case-insensitively, so they are one name declared twice.',
    defaultSeverity: 'error',
    messages: {
      setParameter: "Parameter '{{name}}' is also declared as '{{first}}': names are compared case-insensitively. Remove one or rename it.",
      passedParameter: "Parameter '{{name}}' is also passed as '{{first}}' in this reference: names are compared case-insensitively.",
    },
  },
  check(ctx) {
    const conflicts = (names: Array<{ name: string; keyNode: Node }>, messageId: string) => {
      if (names.length < 2) return;
      const seen = new Map<string, { name: string; keyNode: Node }>();
      for (const entry of names) {
        const lower = entry.name.toLowerCase();
        const first = seen.get(lower);
        // Exact repeats are duplicate keys (json duplicate-key); only casing variants are ours.
        if (first && first.name !== entry.name) {
          ctx.report({
            node: entry.keyNode,
            messageId,
            data: { name: entry.name, first: first.name },
            related: [{ node: first.keyNode, message: `'${first.name}' here` }],
          });
        } else if (!first) seen.set(lower, entry);
      }
    };
    if (mayHaveCaseVariantKeys(ctx.set.parametersNode)) conflicts(ctx.set.parameters, 'setParameter');
    // Names are looked at closely only when two may clash (nearly never).
    for (const reference of ctx.set.references) {
      if (mayHaveCaseVariantKeys(reference.parametersNode)) conflicts(reference.parameterValues, 'passedParameter');
    }
  },
};
