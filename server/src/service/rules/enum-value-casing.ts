import type { SetRule, Fix, FixContext } from './types';
import { enumCasingMatch } from './invalid-enum-value';
import { propertyNameOf, schemaErrorsOf } from './util';
import { keyNodeOf } from '../json';
import { canonicalParameterType } from '../model/policySet';
import { replaceNode } from './support/edits';
import { nodeAt, stringData } from './support/fixes';

export const enumValueCasing: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS2006',
    name: 'enum-value-casing',
    description: "A value matches an allowed value only in a different casing, such as a parameter type 'string' for 'String'. The service accepts it; the canonical casing reads better and matches the documentation.",
    fixable: 'casing',
    defaultSeverity: 'hint',
    messages: { casing: "Use the canonical casing '{{canonical}}' for '{{property}}'." },
  },
  check(ctx) {
    for (const { error, node } of schemaErrorsOf(ctx, 'enum')) {
      const canonical = enumCasingMatch(node.value, (error.params as { allowedValues: unknown[] }).allowedValues);
      if (canonical) ctx.report({ node, messageId: 'casing', data: { canonical, property: propertyNameOf(node) ?? 'value' } });
    }
  },
  fix: fixEnumCasing,
  // Only parameter types: other enum values need the schema to know their canonical casing.
  fixAll({ document, asked }) {
    const typeNodes = document.sets.flatMap((set) => set.parameters.flatMap((p) => (p.typeNode?.type === 'string' && p.type && p.typeNode.value !== p.type ? [{ node: p.typeNode, type: p.type }] : [])));
    const isType = (d: { start: number; end: number }) => typeNodes.some(({ node }) => node.offset === d.start && node.offset + node.length === d.end);
    if (typeNodes.length < 2 || !asked.some(isType)) return undefined;
    return { title: `Write every parameter type in its canonical casing (${typeNodes.length} in this document)`, edits: typeNodes.map(({ node, type }) => replaceNode(node, type)) };
  },
};

function fixEnumCasing(ctx: FixContext): Fix[] {
  const node = nodeAt(ctx, 'string');
  if (!node) return [];
  const value = node.value as string;
  let canonical = stringData(ctx, 'canonical');
  // Without data (a client that drops it), a parameter's type is still known.
  if (canonical === undefined && keyNodeOf(node)?.value === 'type') canonical = canonicalParameterType(value);
  if (!canonical || canonical === value || canonical.toLowerCase() !== value.toLowerCase()) return [];
  return [{ key: `${ctx.start}`, title: `Change to '${canonical}'`, edits: [replaceNode(node, canonical)], preferred: true, safe: true }];
}
