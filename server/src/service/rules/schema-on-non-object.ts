import { keyNodeOf, property } from '../json';
import type { SetRule } from './types';

export const schemaOnNonObject: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS6004',
    name: 'schema-on-non-object',
    description: 'A parameter `schema` is supported only for Object parameters.',
    defaultSeverity: 'error',
    messages: {
      notObject:
        "'schema' is supported only for Object parameters; '{{parameter}}' is {{type}}. Remove the schema or make the parameter an Object.",
    },
  },
  check(ctx) {
    for (const parameter of ctx.set.parameters) {
      const schema = property(parameter.node, 'schema');
      // `"schema": null` (seen in built-ins) declares no schema.
      if (!schema || schema.type === 'null' || !parameter.type || parameter.type === 'Object') continue;
      const key = keyNodeOf(schema);
      if (key) ctx.report({ node: key, messageId: 'notObject', data: { parameter: parameter.name, type: parameter.type } });
    }
  },
};
