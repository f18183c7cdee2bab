import type { SetRule } from './types';
import { parameterSchemas } from './parameterSchemas';

export const invalidParameterSchema: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS6005',
    name: 'invalid-parameter-schema',
    description:
      'A parameter `schema` must be a valid JSON Schema (draft 2019-09; schemas that declare draft-07 are read too). A `$ref` to another document cannot be resolved and is reported.',
    defaultSeverity: 'error',
    messages: { invalid: "The schema of '{{parameter}}' is not a valid JSON Schema 2019-09: {{reason}}." },
  },
  check(ctx) {
    for (const { parameter, schemaNode, compiled } of parameterSchemas(ctx)) {
      if (compiled.error)
        ctx.report({ node: schemaNode, on: 'key', messageId: 'invalid', data: { parameter: parameter.name, reason: compiled.error } });
    }
  },
};
