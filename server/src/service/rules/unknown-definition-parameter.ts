import { closestMatch, onlyCloseMatch } from '../text';
import { definitionParameter, describeDefinition, resolvedReferences } from './referencedDefinitions';
import type { SetRule } from './types';
import { renameKey, stringData } from './support/fixes';

export const unknownDefinitionParameter: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8001',
    name: 'unknown-definition-parameter',
    description:
      'A reference passes a parameter that the referenced policy definition does not declare. The service rejects the set. Checked when the definition is known (a definitions index or policy definition files) and the reference uses the version whose parameters are known.',
    fixable: 'typo',
    defaultSeverity: 'error',
    messages: {
      unknown: "The referenced definition {{definition}} has no parameter '{{name}}'.",
      unknownDidYouMean: "The referenced definition {{definition}} has no parameter '{{name}}'. Did you mean '{{suggestion}}'?",
    },
  },
  check(ctx) {
    for (const resolved of resolvedReferences(ctx)) {
      if (!resolved.applicable.length) continue;
      for (const value of resolved.reference.parameterValues) {
        if (definitionParameter(resolved, value.name).length) continue;
        const names = [...new Set(resolved.applicable.flatMap((v) => [...v.parameters.values()].map((p) => p.name)))];
        const suggestion = closestMatch(value.name, names);
        ctx.report({
          node: value.keyNode,
          messageId: suggestion ? 'unknownDidYouMean' : 'unknown',
          data: { name: value.name, definition: describeDefinition(resolved), suggestion, known: names },
        });
      }
    }
  },
  // Applied on its own when the suggestion is the one parameter of the definition close to the name passed.
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
