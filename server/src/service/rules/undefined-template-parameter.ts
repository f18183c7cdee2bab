import { entries, property, type Node } from '../json';
import type { SetRule } from './types';

/**
 * The template whose parameters a set resource's expressions see: the document's root, or undefined
 * inside a nested deployment (whose expressions see its own or its parent's parameters, by its scope).
 */
function outermostTemplate(node: Node): Node | undefined {
  let current: Node | undefined = node;
  while (current.parent) {
    if (current.parent.type === 'property' && current.parent.children?.[0]?.value === 'template') return undefined;
    current = current.parent;
  }
  return current;
}

export const undefinedTemplateParameter: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS7005',
    name: 'undefined-template-parameter',
    description:
      "In an ARM template, `\"[parameters('x')]\"` is evaluated by the template at deployment, so 'x' must be a parameter of the template. To pass the set's own parameter to a definition, escape the bracket: `\"[[parameters('x')]\"`.",
    defaultSeverity: 'error',
    messages: {
      undefined: "Template parameter '{{name}}' is not declared in the template's parameters: the deployment fails.",
      escape:
        "Template parameter '{{name}}' is not declared in the template: to pass the set's parameter '{{name}}', write \"[[parameters('{{name}}')]\" (the template then leaves it to the policy engine).",
    },
  },
  check(ctx) {
    const { set } = ctx;
    // A fragment's template is not in sight: which parameters it declares is not known.
    if (!set.inTemplate || set.fragment || !set.templateParameterUses.length) return;
    const template = outermostTemplate(set.resource);
    if (!template) return;
    const declared = new Set(entries(property(template, 'parameters')).map((e) => e.key.toLowerCase()));
    for (const use of set.templateParameterUses) {
      if (declared.has(use.name.toLowerCase())) continue;
      const isSetParameter = set.parametersByLower.has(use.name.toLowerCase());
      ctx.report({ start: use.start, end: use.end, messageId: isSetParameter ? 'escape' : 'undefined', data: { name: use.name } });
    }
  },
};
