import { property } from '../json';
import type { SetRule } from './types';
import { LIMITS } from './limits';

export const descriptionTooLong: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS9005',
    name: 'description-too-long',
    description: `A policy set's description may be at most ${LIMITS.description} characters.`,
    defaultSeverity: 'warning',
    messages: { tooLong: `description is {{length}} characters; the limit is ${LIMITS.description}.` },
  },
  check(ctx) {
    const node = property(ctx.set.properties, 'description');
    if (node?.type === 'string' && !ctx.set.isDynamic(node) && (node.value as string).length > LIMITS.description) {
      ctx.report({ node, messageId: 'tooLong', data: { length: (node.value as string).length } });
    }
  },
};
