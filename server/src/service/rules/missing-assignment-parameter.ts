import type { ConsumerRule } from './types';
import { declarationsOf, describeTargets, relatedDeclarations } from './support/consumers';

export const missingAssignmentParameter: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9202',
    name: 'missing-assignment-parameter',
    description:
      'The assigned set (or definition) has a parameter without a `defaultValue` and the assignment does not pass it: the service rejects the assignment. Checked for assignments whose every value is in sight (inside a deployment template); a library file that a tool completes before it deploys it (a landing-zone library, the policy-as-code framework) is not checked.',
    defaultSeverity: 'error',
    messages: {
      missing: "The assigned {{target}} requires parameter '{{name}}' (it has no default value), and the assignment does not pass it.",
    },
  },
  check(ctx) {
    for (const resolved of ctx.resolvedConsumers()) {
      const consumer = resolved.consumer;
      if (!resolved.resolved || !consumer.complete || consumer.shape !== 'assignment') continue;
      const passed = new Set(consumer.parameters.map((p) => p.name.toLowerCase()));
      const declarations = declarationsOf(resolved);
      // Required only when every declaration the target may mean requires it (copies of a set may differ).
      const required = new Map<string, string>();
      declarations.forEach((declaration, i) => {
        for (const [lower, parameter] of declaration.parameters) {
          if (parameter.hasDefault) continue;
          if (i === 0) required.set(lower, parameter.name);
        }
        if (i > 0) for (const lower of [...required.keys()]) if (declaration.parameters.get(lower)?.hasDefault !== false) required.delete(lower);
      });
      for (const [lower, name] of required) {
        if (passed.has(lower)) continue;
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
};
