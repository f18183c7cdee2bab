import type { DocumentRule } from './types';

export const nonUtf8Encoding: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS1006',
    name: 'non-utf8-encoding',
    description:
      'The file is saved as UTF-16 or with a byte order mark. It is read and checked as its text, but the service expects UTF-8 without a byte order mark: the az CLI and PowerShell convert a file when they read it, tools that send its bytes as they are do not.',
    defaultSeverity: 'warning',
    messages: {
      encoding:
        'The file is saved as {{encoding}}; the service expects UTF-8 without a byte order mark. Save it as UTF-8 (in VS Code: the encoding in the status bar, then "Save with Encoding", "UTF-8").',
    },
  },
  check(ctx) {
    const encoding = ctx.options.encoding;
    if (encoding) ctx.report({ start: 0, end: Math.min(1, ctx.text.length), messageId: 'encoding', data: { encoding } });
  },
};
