import { firstSchemaError } from '../schema/parameterSchema';
import { isLiteral } from './literal';
import { valueOf } from '../json';
import { declaredValues, parameterSchemas } from './parameterSchemas';
import type { SetRule } from './types';

export const valueViolatesParameterSchema: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS6006',
    name: 'value-violates-parameter-schema',
    description:
      "A parameter's `defaultValue` or an `allowedValues` entry does not validate against the parameter's own `schema`. Patterns run on a linear-time engine, so a hostile pattern cannot hang validation.",
    defaultSeverity: 'error',
    messages: { violates: "This value of '{{parameter}}' does not match its schema: {{reason}}." },
  },
  check(ctx) {
    for (const { parameter, compiled } of parameterSchemas(ctx)) {
      if (!compiled.validate) continue;
      for (const node of declaredValues(parameter)) {
        if (!isLiteral(ctx.set, node)) continue;
        const reason = firstSchemaError(compiled, valueOf(node));
        if (reason) ctx.report({ node, messageId: 'violates', data: { parameter: parameter.name, reason } });
      }
    }
  },
};
