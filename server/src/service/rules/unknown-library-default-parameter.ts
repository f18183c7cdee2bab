import { libraryAssignmentsByName } from '../consumers/libraryDefaults';
import { closestMatch } from '../text';
import type { ConsumerRule, RelatedReport } from './types';
import { declarationsOf, describeTargets, relatedDeclarations } from './support/consumers';

export const unknownLibraryDefaultParameter: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9217',
    name: 'unknown-library-default-parameter',
    description:
      "A default value of the landing-zone library (`alz_policy_default_values.json`) fills in, in `parameter_names`, a parameter that the set (or definition) its assignment assigns does not declare: the assignment would pass a parameter the service rejects. Often a parameter renamed in the set. Checked when the library's assignment file and its set are known.",
    defaultSeverity: 'error',
    messages: {
      unknown: "Parameter '{{parameter}}' is not declared by the {{target}} that assignment '{{assignment}}' assigns.",
      unknownDidYouMean:
        "Parameter '{{parameter}}' is not declared by the {{target}} that assignment '{{assignment}}' assigns. Did you mean '{{suggestion}}'?",
    },
  },
  check(ctx) {
    const library = ctx.options.libraryAssignments;
    if (!library) return;
    const byName = libraryAssignmentsByName(library, ctx.options.definitions);
    for (const consumer of ctx.consumers) {
      for (const value of consumer.defaults ?? []) {
        const assignments = byName.get(value.assignment.toLowerCase());
        // Every file of that name must be known: a parameter is reported only when none of them declares it.
        if (!assignments?.length || !assignments.every((a) => a.resolved.resolved)) continue;
        const declarations = assignments.flatMap((a) => declarationsOf(a.resolved));
        for (const parameter of value.parameters) {
          const lower = parameter.name.toLowerCase();
          if (declarations.some((d) => d.parameters.has(lower))) continue;
          const known = [...new Set(declarations.flatMap((d) => [...d.parameters.values()].map((p) => p.name)))];
          const suggestion = closestMatch(parameter.name, known);
          const related: RelatedReport[] = [
            ...assignments.map((a) => ({
              location: { uri: a.uri, line: a.at.line, character: a.at.character },
              message: `Assignment '${a.name}'`,
            })),
            ...relatedDeclarations(declarations, 'Parameters of'),
          ];
          ctx.report({
            node: parameter.node,
            messageId: suggestion ? 'unknownDidYouMean' : 'unknown',
            data: { parameter: parameter.name, assignment: value.assignment, target: describeTargets(declarations), suggestion },
            related,
          });
        }
      }
    }
  },
};
