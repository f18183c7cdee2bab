import { MAX_DEPTH } from '../json';
import type { DocumentRule } from './types';

export const nestingTooDeep: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS1003',
    name: 'nesting-too-deep',
    description: `The document nests objects and arrays more than ${MAX_DEPTH} levels deep. It is not checked beyond its syntax: no policy set needs such depth.`,
    defaultSeverity: 'error',
    messages: {
      tooDeep: `Nesting goes deeper than ${MAX_DEPTH} levels ({{depth}} found): the document is not validated further. Flatten the structure.`,
    },
  },
  check(ctx) {
    const tooDeep = ctx.parsed.tooDeep;
    if (tooDeep)
      ctx.report({
        start: tooDeep.offset,
        end: tooDeep.offset + 1,
        messageId: 'tooDeep',
        data: { depth: tooDeep.depth > 100_000 ? 'over 100000' : tooDeep.depth },
      });
  },
};
