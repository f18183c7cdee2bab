import type { SetRule } from './types';
import { LIMITS, utf8Length } from './limits';

export const requestTooLarge: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS9003',
    name: 'request-too-large',
    description: 'The request body of a policy set may be at most 1 MiB. Whitespace counts as written.',
    defaultSeverity: 'warning',
    messages: {
      tooLarge: 'This policy set is at least {{size}} KiB, over the 1024 KiB limit for a request body. Remove whitespace or split the set.',
    },
  },
  check(ctx) {
    const node = ctx.set.resource;
    // UTF-8 needs at least 1 and at most 3 bytes per UTF-16 unit: count only when the length does not decide.
    if (node.length * 3 <= LIMITS.requestBytes) return;
    const bytes = node.length > LIMITS.requestBytes ? node.length : utf8Length(ctx.text, node.offset, node.offset + node.length);
    if (bytes > LIMITS.requestBytes) ctx.report({ node, on: 'key', messageId: 'tooLarge', data: { size: Math.ceil(bytes / 1024), bytes } });
  },
};
