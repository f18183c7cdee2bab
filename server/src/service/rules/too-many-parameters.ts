import type { SetRule } from './types';
import { LIMITS } from './limits';

export const tooManyParameters: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS9002',
    name: 'too-many-parameters',
    description: `A policy set can declare at most ${LIMITS.parameters} parameters.`,
    defaultSeverity: 'warning',
    messages: {
      tooMany: `This set declares {{count}} parameters; the limit is ${LIMITS.parameters}. Share parameters between references where they mean the same.`,
    },
  },
  check(ctx) {
    const count = ctx.set.parameters.length;
    if (count > LIMITS.parameters) ctx.report({ node: ctx.set.parametersNode, on: 'key', messageId: 'tooMany', data: { count } });
  },
};
