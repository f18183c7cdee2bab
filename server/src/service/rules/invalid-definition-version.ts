import type { SetRule } from './types';
import { DEFINITION_VERSION } from './util';

export const invalidDefinitionVersion: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS3003',
    name: 'invalid-definition-version',
    description: "A reference's `definitionVersion` must be `#.#.#` or have wildcard components: `#.#.*` or `#.*.*` (a suffix such as `-preview` is allowed).",
    defaultSeverity: 'error',
    messages: { format: "definitionVersion '{{value}}' must be #.#.#, #.#.* or #.*.* (such as '1.*.*')." },
  },
  check(ctx) {
    for (const reference of ctx.set.references) {
      const node = reference.definitionVersionNode;
      if (!node || node.type !== 'string' || ctx.set.isDynamic(node)) continue;
      if (!DEFINITION_VERSION.test(node.value as string)) ctx.report({ node, messageId: 'format', data: { value: node.value } });
    }
  },
};
