import { stringValuesStartingWith } from '../json';
import type { SetRule } from './types';

export const escapedExpressionOutsideTemplate: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS7006',
    name: 'escaped-expression-outside-template',
    description:
      'A set in the service\'s own shape (no `apiVersion`, not in a template) holds a `"[[...]"` string. Only a template turns `[[` into `[`; sent straight to the service it is a literal string, so no parameter flows. The file is probably meant to be loaded into a template: give it the resource\'s `apiVersion`, or write `[...]`. Said once, on the first such string.',
    defaultSeverity: 'hint',
    messages: {
      escaped:
        "'[[' escapes an expression for a template only: sent to the service as it is, this is a literal string. If the file is loaded into a template, give it the resource's \"apiVersion\"; if it is sent as it is, write '[' .",
    },
  },
  check(ctx) {
    const { set } = ctx;
    if ((set.inTemplate && !set.loadedByTemplate) || !set.properties) return;
    const first = stringValuesStartingWith(set.properties, '[').find((node) => (node.value as string)[1] === '[');
    if (first) ctx.report({ node: first, messageId: 'escaped' });
  },
};
