import { nodeAtPointer, valueOf } from '../json';
import { validateAgainst } from '../schema/schemas';
import type { DocumentRule } from './types';
import { describeJsonType, describeOwner } from './util';

export const invalidWorkspaceItem: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS2007',
    name: 'invalid-workspace-item',
    description:
      'A workspace item (spec C, such as an eventstream) does not match its schema: a field of the wrong type, or an ID that is not a UUID.',
    defaultSeverity: 'error',
    messages: {
      type: '{{property}} must be {{expected}}, not {{actual}}.',
      uuid: "{{property}} must be a UUID such as '00000000-0000-0000-0000-000000000000', not '{{value}}'.",
      other: '{{property}}: {{problem}}.',
    },
  },
  check(ctx) {
    if (ctx.kind !== 'workspaceItem' || !ctx.parsed.root) return;
    const seen = new Set<string>();
    for (const error of validateAgainst('workspaceItem', ctx.parsed.value())) {
      const node = nodeAtPointer(ctx.parsed.root, error.instancePath);
      if (!node || seen.has(error.instancePath)) continue;
      seen.add(error.instancePath);
      const property = describeOwner(node);
      if (error.keyword === 'type') {
        const expected = String((error.params as { type: string }).type)
          .replace(/^(object|array|integer)$/, 'an $1')
          .replace(/^(string|number|boolean)$/, 'a $1');
        ctx.report({ node, messageId: 'type', data: { property, expected, actual: describeJsonType(valueOf(node)) } });
      } else if (error.keyword === 'pattern') {
        ctx.report({ node, messageId: 'uuid', data: { property, value: String(node.value) } });
      } else {
        ctx.report({ node, messageId: 'other', data: { property, problem: error.message ?? error.keyword } });
      }
    }
  },
};
