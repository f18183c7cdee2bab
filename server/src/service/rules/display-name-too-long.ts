import { property } from '../json';
import type { SetRule } from './types';
import { LIMITS } from './limits';

export const displayNameTooLong: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS9004',
    name: 'display-name-too-long',
    description: `A policy set's displayName may be at most ${LIMITS.displayName} characters.`,
    defaultSeverity: 'warning',
    messages: { tooLong: `displayName is {{length}} characters; the limit is ${LIMITS.displayName}.` },
  },
  check(ctx) {
    const node = property(ctx.set.properties, 'displayName');
    if (node?.type === 'string' && !ctx.set.isDynamic(node) && (node.value as string).length > LIMITS.displayName) {
      ctx.report({ node, messageId: 'tooLong', data: { length: (node.value as string).length } });
    }
  },
};
