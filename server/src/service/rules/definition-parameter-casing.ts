import { definitionParameter, resolvedReferences } from './referencedDefinitions';
import type { SetRule } from './types';
import { renameKey, stringData } from './support/fixes';

export const definitionParameterCasing: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS8008',
    name: 'definition-parameter-casing',
    description:
      'A passed parameter matches a parameter of the referenced definition only in a different casing. The service accepts it; write it as the definition declares it.',
    fixable: 'casing',
    defaultSeverity: 'hint',
    messages: { casing: "The definition declares this parameter as '{{declared}}'." },
  },
  check(ctx) {
    for (const resolved of resolvedReferences(ctx)) {
      for (const value of resolved.reference.parameterValues) {
        const declared = definitionParameter(resolved, value.name);
        if (declared.length && !declared.some((p) => p.name === value.name)) {
          ctx.report({ node: value.keyNode, messageId: 'casing', data: { declared: declared[0].name } });
        }
      }
    }
  },
  fix: renameKey(
    (ctx) => stringData(ctx, 'declared'),
    (to) => `Rename to '${to}' as the definition declares it`,
  ),
};
