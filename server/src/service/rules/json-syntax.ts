import type { DocumentRule } from './types';

export const jsonSyntax: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS1001',
    name: 'json-syntax',
    description: 'The document is not well-formed JSON. Every error of a tolerant parse is reported, not only the first.',
    defaultSeverity: 'error',
    messages: { syntax: '{{message}}.' },
  },
  check(ctx) {
    for (const error of ctx.parsed.syntaxErrors) {
      ctx.report({ start: error.offset, end: error.offset + Math.max(error.length, 1), messageId: 'syntax', data: { message: error.message } });
    }
  },
};
