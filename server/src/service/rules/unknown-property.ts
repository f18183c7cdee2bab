import type { ErrorObject } from 'ajv';
import { property, type Node } from '../json';
import type { SetRule } from './types';
import { closestMatch } from '../text';
import { describeOwner, schemaErrorsOf } from './util';
import { renameKey, stringData } from './support/fixes';

export interface UnknownProperty {
  keyNode: Node;
  name: string;
  known: string[];
  casingOf?: string;
}

export function unknownProperties(errors: Array<{ error: ErrorObject; node: Node }>): UnknownProperty[] {
  const result: UnknownProperty[] = [];
  for (const { error, node } of errors) {
    const name = (error.params as { additionalProperty: string }).additionalProperty;
    const valueNode = property(node, name);
    const keyNode = valueNode?.parent?.children?.[0];
    if (!keyNode) continue;
    const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
    const lower = name.toLowerCase();
    result.push({ keyNode, name, known, casingOf: known.find((k) => k.toLowerCase() === lower) });
  }
  return result;
}

export const unknownProperty: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS2004',
    name: 'unknown-property',
    description: 'A property that the interface spec does not define. The service ignores or rejects it; it is often a typo.',
    fixable: 'typo',
    defaultSeverity: 'warning',
    messages: {
      unknown: "Unknown property '{{name}}' in {{owner}}.",
      unknownDidYouMean: "Unknown property '{{name}}' in {{owner}}. Did you mean '{{suggestion}}'?",
    },
  },
  check(ctx) {
    for (const item of unknownProperties(schemaErrorsOf(ctx, 'additionalProperties'))) {
      if (item.casingOf) continue;
      const suggestion = closestMatch(item.name, item.known);
      const owner = describeOwner(item.keyNode.parent?.parent);
      ctx.report({
        node: item.keyNode,
        messageId: suggestion ? 'unknownDidYouMean' : 'unknown',
        data: { name: item.name, owner, suggestion },
      });
    }
  },
  // A property the spec does not define may be meant for another tool: renaming it is a person's choice.
  fix: renameKey(
    (ctx) => stringData(ctx, 'suggestion'),
    (to) => `Rename to '${to}'`,
    false,
    () => false,
  ),
};
