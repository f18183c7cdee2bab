import type { DocumentRule } from './types';
import { readerTakes } from './jsonc';

export const jsonSyntax: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS1001',
    name: 'json-syntax',
    description:
      "The document is not well-formed JSON. Every error of a tolerant parse is reported, not only the first. Trailing commas are taken in .jsonc files and in the policy-as-code framework's files, whose readers take them.",
    defaultSeverity: 'error',
    messages: { syntax: '{{message}}.' },
  },
  check(ctx) {
    // A .jsonc file, or one of the policy-as-code framework, is read by a reader that takes trailing commas.
    const lenient = ctx.parsed.syntaxErrors.some((e) => e.trailingComma) && readerTakes(ctx, 'trailingCommas');
    for (const error of ctx.parsed.syntaxErrors) {
      if (lenient && error.trailingComma) continue;
      ctx.report({
        start: error.offset,
        end: error.offset + Math.max(error.length, 1),
        messageId: 'syntax',
        data: { message: error.message },
      });
    }
  },
};
