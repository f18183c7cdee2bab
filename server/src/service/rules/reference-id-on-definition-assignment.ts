import type { ConsumerRule } from './types';

export const referenceIdOnDefinitionAssignment: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9206',
    name: 'reference-id-on-definition-assignment',
    description:
      'A `policyDefinitionReferenceId` (in `nonComplianceMessages`, an override selector or an exemption) on an assignment of a single policy definition: only a set has members to name, and the service rejects it. Known from the ID alone (`.../policyDefinitions/...`), whether or not the definition is known.',
    defaultSeverity: 'error',
    messages: {
      onDefinition:
        "Reference ID '{{id}}' names a member of a set, but this assigns a single policy definition, which has none: remove it.",
    },
  },
  check(ctx) {
    for (const consumer of ctx.consumers) {
      if (!consumer.referenceIds.length || !consumer.targets.length || !consumer.targets.every((t) => t.kind === 'definition')) continue;
      for (const use of consumer.referenceIds) ctx.report({ node: use.node, messageId: 'onDefinition', data: { id: use.value } });
    }
  },
};
