import type { SetRule } from './types';
import { unknownProperties } from './unknown-property';
import { schemaErrorsOf } from './util';
import { renameKey, stringData } from './support/fixes';

export const propertyNameCasing: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS2005',
    name: 'property-name-casing',
    description:
      "A property name differs from the spec's only in casing, such as `Version` for `version`. The service reads property names case-insensitively; other tools may not.",
    fixable: 'casing',
    defaultSeverity: 'hint',
    messages: { casing: "Property '{{name}}' is spelled '{{canonical}}' in the spec." },
  },
  check(ctx) {
    for (const item of unknownProperties(schemaErrorsOf(ctx, 'additionalProperties'))) {
      if (item.casingOf) ctx.report({ node: item.keyNode, messageId: 'casing', data: { name: item.name, canonical: item.casingOf } });
    }
  },
  fix: renameKey(
    (ctx) => stringData(ctx, 'canonical'),
    (to) => `Rename to '${to}'`,
  ),
};
