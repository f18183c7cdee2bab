import { createScanner, SyntaxKind } from 'jsonc-parser';
import type { DocumentRule } from './types';
import { readerTakes } from './jsonc';

export const commentInJson: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS1005',
    name: 'comment-in-json',
    description:
      'A comment in a .json file. The service reads strict JSON and rejects a request body with comments; tools that strip them first (ARM templates and sets kept as template fragments, the policy-as-code framework, .jsonc files, the deployment plans policyset reads) are not affected, and such files are not reported.',
    defaultSeverity: 'warning',
    messages: {
      comment:
        'A comment in JSON: the service does not take comments in a request body. Remove it, or name the file .jsonc if a tool strips comments before sending.',
    },
  },
  check(ctx) {
    // Strict JSON (JSON.parse took it) has no comments: nothing to scan, which is nearly every file.
    if (ctx.parsed.strict || ctx.parsed.tooLarge || readerTakes(ctx, 'comments')) return;
    const scanner = createScanner(ctx.text, false);
    for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
      if (kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia) {
        ctx.report({ start: scanner.getTokenOffset(), end: scanner.getTokenOffset() + scanner.getTokenLength(), messageId: 'comment' });
      }
    }
  },
};
