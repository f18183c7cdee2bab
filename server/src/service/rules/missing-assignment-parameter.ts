import type { ConsumerRule } from './types';
import { declarationsOf, describeTargets, passMissingParameters, relatedDeclarations, requiredNotPassed } from './support/consumers';

export const missingAssignmentParameter: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9202',
    name: 'missing-assignment-parameter',
    description:
      'The assigned set (or definition) has a parameter without a `defaultValue` and the assignment does not pass it: the service rejects the assignment. Checked for assignments whose every value is in sight (inside a deployment template); a library file that a tool completes before it deploys it (a landing-zone library, the policy-as-code framework) is not checked.',
    fixable: 'add',
    defaultSeverity: 'error',
    messages: {
      missing: "The assigned {{target}} requires parameter '{{name}}' (it has no default value), and the assignment does not pass it.",
    },
  },
  check(ctx) {
    for (const resolved of ctx.resolvedConsumers()) {
      const consumer = resolved.consumer;
      if (!resolved.resolved || !consumer.complete || consumer.shape !== 'assignment') continue;
      const declarations = declarationsOf(resolved);
      const required = requiredNotPassed(resolved);
      for (const name of required.values()) {
        ctx.report({
          node: consumer.parametersNode ?? resolved.targets[0].target.node,
          on: 'key',
          messageId: 'missing',
          data: { name, target: describeTargets(declarations) },
          related: relatedDeclarations(declarations, 'Declared by'),
        });
      }
    }
  },
  fix: passMissingParameters,
};
