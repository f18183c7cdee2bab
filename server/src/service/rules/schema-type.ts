import type { SetRule } from './types';
import { describeJsonType, describeOwner, schemaErrorsOf } from './util';
import { valueOf } from '../json';

export const schemaType: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS2001',
    name: 'schema-type',
    description:
      'A property has the wrong JSON type for the interface spec (for example a string where an array is expected, or a non-boolean `assignPermissions`).',
    defaultSeverity: 'error',
    messages: { type: "'{{property}}' must be {{expected}}, not {{actual}}." },
  },
  check(ctx) {
    for (const { error, node } of schemaErrorsOf(ctx, 'type')) {
      const types = String((error.params as { type: string | string[] }).type).split(',');
      const article = (t: string) => (t === 'null' ? 'null' : /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);
      const expected = types.map(article).join(' or ');
      ctx.report({
        node,
        messageId: 'type',
        data: {
          property: describeOwner(node).replace(/^'|'$/g, ''),
          expected,
          actual: describeJsonType(valueOf(node)),
          expectedType: types[0],
        },
      });
    }
  },
};
