import type { SetRule } from './types';
import { LIMITS } from './limits';

export const tooManyReferences: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS9001',
    name: 'too-many-references',
    description: `A policy set can hold at most ${LIMITS.references} policy definition references.`,
    defaultSeverity: 'warning',
    messages: { tooMany: `This set has {{count}} references; the limit is ${LIMITS.references}. Split it into several sets.` },
  },
  check(ctx) {
    const count = ctx.set.references.length;
    if (count > LIMITS.references) ctx.report({ node: ctx.set.referencesNode, on: 'key', messageId: 'tooMany', data: { count } });
  },
};
