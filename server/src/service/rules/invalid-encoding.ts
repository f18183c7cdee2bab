import type { DocumentRule } from './types';

export const invalidEncoding: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS1004',
    name: 'invalid-encoding',
    description:
      'The file is not valid UTF-8. The service reads JSON as UTF-8; invalid bytes are read as U+FFFD and the text changes silently.',
    defaultSeverity: 'error',
    messages: { invalidUtf8: 'Invalid UTF-8 byte sequence (byte 0x{{byte}} at byte offset {{byteOffset}}): save the file as UTF-8.' },
  },
  check(ctx) {
    const problem = ctx.options.encodingProblem;
    if (problem)
      ctx.report({
        start: problem.offset,
        end: problem.offset + 1,
        messageId: 'invalidUtf8',
        data: { byte: problem.byte.toString(16).toUpperCase().padStart(2, '0'), byteOffset: problem.byteOffset },
      });
  },
};
