import { libraryAssignmentsByName } from '../consumers/libraryDefaults';
import { closestMatch } from '../text';
import type { ConsumerRule } from './types';

export const unknownLibraryDefaultAssignment: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9216',
    name: 'unknown-library-default-assignment',
    description:
      "A default value of the landing-zone library (`alz_policy_default_values.json`) names, in `policy_assignment_name`, an assignment that no `*.alz_policy_assignment.json` of the library defines: the value is set on nothing. Usually an assignment renamed or removed. Checked when `policyset lint` lints the library's assignment files with it (its folder, and the folders of the libraries it depends on).",
    defaultSeverity: 'warning',
    messages: {
      unknown: "Default value names assignment '{{name}}', which no assignment file of the library defines.",
      unknownDidYouMean:
        "Default value names assignment '{{name}}', which no assignment file of the library defines. Did you mean '{{suggestion}}'?",
    },
  },
  check(ctx) {
    const library = ctx.options.libraryAssignments;
    if (!library?.complete) return;
    const byName = libraryAssignmentsByName(library, ctx.options.definitions);
    for (const consumer of ctx.consumers) {
      for (const value of consumer.defaults ?? []) {
        if (byName.has(value.assignment.toLowerCase())) continue;
        const suggestion = closestMatch(
          value.assignment,
          [...byName.values()].map((a) => a[0].name),
        );
        ctx.report({
          node: value.assignmentNode,
          messageId: suggestion ? 'unknownDidYouMean' : 'unknown',
          data: { name: value.assignment, suggestion },
        });
      }
    }
  },
};
