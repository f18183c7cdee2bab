import { LARGE_DOCUMENT } from '../json';
import type { DocumentRule } from './types';

export const documentTooLarge: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS9006',
    name: 'document-too-large',
    description: `A document over ${LARGE_DOCUMENT / 1048576} MiB is checked for its syntax and size only. The service takes at most 1 MiB per request, so such a set cannot be deployed as it is: split it.`,
    defaultSeverity: 'warning',
    messages: {
      tooLarge: `This document is {{size}} MiB: over ${LARGE_DOCUMENT / 1048576} MiB only its syntax and size are checked. The service takes at most 1 MiB per request: split the set.`,
    },
  },
  check(ctx) {
    const tooLarge = ctx.parsed.tooLarge;
    if (!tooLarge) return;
    const start = ctx.text.search(/\S/);
    ctx.report({
      start: Math.max(0, start),
      end: Math.max(0, start) + 1,
      messageId: 'tooLarge',
      data: { size: (tooLarge.length / 1048576).toFixed(1) },
    });
  },
};
