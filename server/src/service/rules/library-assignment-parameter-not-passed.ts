import type { ConsumerRule } from './types';
import { declarationsOf, describeTargets, passMissingParameters, relatedDeclarations, requiredNotPassed } from './support/consumers';

export const libraryAssignmentParameterNotPassed: ConsumerRule = {
  scope: 'consumer',
  meta: {
    code: 'PS9209',
    name: 'library-assignment-parameter-not-passed',
    description:
      "An assignment resource kept alone (a landing-zone library's file, a Bicep or Terraform module's template) does not pass parameters that the assigned set requires (no `defaultValue`). The tool that deploys it may add them (missing-assignment-parameter reports this as an error inside a deployment template, where every value is in sight); if it does not, the deployment fails. Said once per assignment, as information.",
    fixable: 'add',
    defaultSeverity: 'info',
    messages: {
      notPassed:
        'The assigned {{target}} requires {{names}} (no default value), and this assignment does not pass {{them}}: the tool that deploys it must, or the deployment fails.',
    },
  },
  check(ctx) {
    for (const resolved of ctx.resolvedConsumers()) {
      const consumer = resolved.consumer;
      if (!resolved.resolved || consumer.complete || consumer.shape !== 'assignment' || consumer.parametersNode?.type === 'string')
        continue;
      const required = [...requiredNotPassed(resolved).values()];
      if (!required.length) continue;
      const declarations = declarationsOf(resolved);
      ctx.report({
        node: consumer.parametersNode ?? resolved.targets[0].target.node,
        on: 'key',
        messageId: 'notPassed',
        data: {
          names: required.map((n) => `'${n}'`).join(', '),
          them: required.length === 1 ? 'it' : 'them',
          target: describeTargets(declarations),
          missing: required,
        },
        related: relatedDeclarations(declarations, 'Declared by'),
      });
    }
  },
  fix: passMissingParameters,
};
