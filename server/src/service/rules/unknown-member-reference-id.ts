import { closestMatch } from '../text';
import { isPlaceholderValue } from '../consumers';
import type { ConsumerRule } from './types';
import { declarationsOf, describeTargets, relatedDeclarations } from './support/consumers';

const WHERE: Record<string, string> = {
  nonComplianceMessages: 'A non-compliance message',
  overrides: 'An override selector',
  exemption: 'The exemption',
  enrollment: 'The enrollment',
};

export const unknownMemberReferenceId: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9205',
    name: 'unknown-member-reference-id',
    description:
      'A `policyDefinitionReferenceId` in an assignment\'s `nonComplianceMessages` or `overrides` selectors, or in the `policyDefinitionReferenceIds` of an exemption or an enrollment, names no member of the assigned set: the service rejects it ("The following policy definition reference IDs ... do not exist in the assigned policy set definition"). Often a reference ID renamed or removed in the set. Checked when the set is known (for an exemption resource or an enrollment, which name their assignment, when the assignment\'s file is linted with them).',
    defaultSeverity: 'error',
    messages: {
      unknown: "{{where}} names reference ID '{{id}}', which is not a member of the assigned {{target}}.",
      unknownDidYouMean:
        "{{where}} names reference ID '{{id}}', which is not a member of the assigned {{target}}. Did you mean '{{suggestion}}'?",
    },
  },
  check(ctx) {
    for (const resolved of ctx.resolvedConsumers()) {
      const uses = resolved.consumer.referenceIds;
      if (!uses.length || !resolved.resolved) continue;
      const declarations = declarationsOf(resolved);
      // A definition among the targets has no members (reference-id-on-definition-assignment says so).
      if (declarations.some((d) => !d.referenceIds)) continue;
      for (const use of uses) {
        if (isPlaceholderValue(use.value)) continue;
        const lower = use.value.toLowerCase();
        if (declarations.some((d) => d.referenceIds!.has(lower))) continue;
        const known = [...new Set(declarations.flatMap((d) => [...d.referenceIds!.values()]))];
        const suggestion = closestMatch(use.value, known);
        ctx.report({
          node: use.node,
          messageId: suggestion ? 'unknownDidYouMean' : 'unknown',
          data: { where: WHERE[use.where], id: use.value, target: describeTargets(declarations), suggestion },
          related: relatedDeclarations(declarations, 'Members of'),
        });
      }
    }
  },
};
