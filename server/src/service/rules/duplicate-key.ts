import type { DocumentRule } from './types';

export const duplicateKey: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS1002',
    name: 'duplicate-key',
    description: 'An object has the same key twice. JSON readers disagree on which value wins, and the service rejects such documents.',
    defaultSeverity: 'error',
    messages: { duplicate: "Duplicate key '{{key}}': remove one of them (the last one wins in most readers)." },
  },
  check(ctx) {
    for (const key of ctx.parsed.duplicateKeys) {
      const object = key.parent?.parent;
      const first = object?.children?.find((prop) => prop.children?.[0]?.value === key.value)?.children?.[0];
      const related = first && first !== key ? [{ node: first, message: `First '${String(key.value)}' here` }] : [];
      ctx.report({ node: key, messageId: 'duplicate', data: { key: String(key.value) }, related });
    }
  },
};
