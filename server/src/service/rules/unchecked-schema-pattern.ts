import type { SetRule } from './types';
import { parameterSchemas } from './parameterSchemas';

export const uncheckedSchemaPattern: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS6007',
    name: 'unchecked-schema-pattern',
    description:
      'A `pattern` in a parameter `schema` uses lookaround or backreferences, which the linear-time regular expression engine used here cannot run. Values are not checked against it.',
    defaultSeverity: 'info',
    messages: {
      unchecked:
        "Pattern '{{pattern}}' in the schema of '{{parameter}}' uses lookaround or backreferences: values are not checked against it here.",
      costly:
        "Pattern '{{pattern}}' in the schema of '{{parameter}}' expands to more states than can run in bounded time (counted repetitions): values are not checked against it here.",
    },
  },
  check(ctx) {
    for (const { parameter, schemaNode, compiled } of parameterSchemas(ctx)) {
      for (const pattern of compiled.uncheckedPatterns) {
        ctx.report({ node: schemaNode, on: 'key', messageId: 'unchecked', data: { parameter: parameter.name, pattern: shown(pattern) } });
      }
      for (const pattern of compiled.costlyPatterns ?? []) {
        ctx.report({ node: schemaNode, on: 'key', messageId: 'costly', data: { parameter: parameter.name, pattern: shown(pattern) } });
      }
    }
  },
};

/** A pattern in a message: a long one is cut (the schema shows it whole). */
const shown = (pattern: string) => (pattern.length > 100 ? `${pattern.slice(0, 100)}…` : pattern);
