import { property } from '../json';
import { ITEM_TYPES, knownItemType } from '../model/itemTypes';
import { closestMatch } from '../text';
import type { DocumentRule } from './types';

export const unknownItemType: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS2008',
    name: 'unknown-item-type',
    description:
      "A workspace item's `type` is not one of the 44 ItemType values of the spec, or is cased differently. A warning: the list grows over time.",
    defaultSeverity: 'warning',
    messages: {
      unknown: "'{{value}}' is not a known item type; the list grows over time, so this may be a newer type.",
      unknownDidYouMean: "'{{value}}' is not a known item type. Did you mean '{{suggestion}}'?",
      casing: "Item type '{{value}}' is spelled '{{suggestion}}'.",
    },
  },
  check(ctx) {
    if (ctx.kind !== 'workspaceItem') return;
    const node = property(ctx.parsed.root, 'type');
    if (!node || node.type !== 'string') return;
    const value = node.value as string;
    const known = knownItemType(value);
    if (known === value) return;
    const suggestion = known ?? closestMatch(value, ITEM_TYPES);
    ctx.report({ node, messageId: known ? 'casing' : suggestion ? 'unknownDidYouMean' : 'unknown', data: { value, suggestion } });
  },
};
