import type { SetRule } from './types';

export const malformedExpression: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS7004',
    name: 'malformed-expression',
    description:
      "A reference parameter value starts with '[' and ends with ']', so the service evaluates it as an expression, but it does not parse. Write '[[' at the start for a literal string.",
    defaultSeverity: 'error',
    messages: { malformed: 'Malformed expression: {{message}}.' },
  },
  check(ctx) {
    for (const problem of ctx.set.expressionProblems) {
      ctx.report({ start: problem.start, end: problem.end, messageId: 'malformed', data: { message: problem.message } });
    }
  },
};
