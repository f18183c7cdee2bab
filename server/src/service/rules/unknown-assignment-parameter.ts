import { closestMatch, onlyCloseMatch } from '../text';
import type { ConsumerRule } from './types';
import { renameKey, stringData } from './support/fixes';
import { declarationsOf, declaredParameter, describeTargets, relatedDeclarations } from './support/consumers';

export const unknownAssignmentParameter: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9201',
    name: 'unknown-assignment-parameter',
    description:
      "An assignment passes a parameter that the set (or definition) it assigns does not declare: the service rejects the assignment, and the policy-as-code framework drops the value without a word, so the set's default applies. Often a parameter renamed in the set. Checked when every set the assignment (or, in the framework's tree, the file) assigns is known.",
    fixable: 'typo',
    defaultSeverity: 'error',
    messages: {
      unknown: "The assigned {{target}} has no parameter '{{name}}'.",
      unknownDidYouMean: "The assigned {{target}} has no parameter '{{name}}'. Did you mean '{{suggestion}}'?",
    },
  },
  check(ctx) {
    for (const resolved of ctx.resolvedConsumers()) {
      if (!resolved.resolved) continue;
      const declarations = declarationsOf(resolved);
      for (const passed of resolved.consumer.parameters) {
        if (declaredParameter(resolved, passed.name).length) continue;
        const names = [...new Set(declarations.flatMap((d) => [...d.parameters.values()].map((p) => p.name)))];
        const suggestion = closestMatch(passed.name, names);
        ctx.report({
          node: passed.keyNode,
          messageId: suggestion ? 'unknownDidYouMean' : 'unknown',
          data: { name: passed.name, target: describeTargets(declarations), suggestion, known: names },
          related: relatedDeclarations(declarations, 'Parameters declared by'),
        });
      }
    }
  },
  // Offered in the editor; applied on its own when the suggestion is the one declared name close to the one passed.
  fix: renameKey(
    (ctx) => stringData(ctx, 'suggestion'),
    (to) => `Rename to '${to}'`,
    false,
    (ctx, from, to) => {
      const known = ctx.data.known;
      return (
        Array.isArray(known) &&
        onlyCloseMatch(
          from,
          known.filter((k): k is string => typeof k === 'string'),
        ) === to
      );
    },
  ),
};
