import type { SetRule, Fix, FixContext } from './types';
import { enumCasingMatch } from './invalid-enum-value';
import { propertyNameOf, schemaErrorsOf } from './util';
import { keyNodeOf } from '../json';
import { canonicalParameterType } from '../model/policySet';
import { replaceNode } from './support/edits';
import { nodeAt, setAt, stringData } from './support/fixes';

export const enumValueCasing: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS2006',
    name: 'enum-value-casing',
    description:
      "A value matches an allowed value only in a different casing, such as a parameter type 'string' for 'String'. The service accepts it; the canonical casing reads better and matches the documentation.",
    fixable: 'casing',
    defaultSeverity: 'hint',
    messages: {
      casing: "Use the canonical casing '{{canonical}}' for '{{property}}'.",
      houseStyle:
        "All {{count}} parameter types of this set are written in lowercase ('{{value}}' for '{{canonical}}'), as template authors often do: the service accepts it. Said once for the set; the canonical casing matches the documentation.",
    },
  },
  check(ctx) {
    // Lowercase parameter types throughout a set are a house style (template fragments write "type": "string"
    // as ARM templates do): one hint for the set, on the first, not one per parameter.
    const types = ctx.set.parameters.flatMap((p) =>
      p.typeNode?.type === 'string' && p.type ? [{ node: p.typeNode, value: p.typeNode.value as string, type: p.type }] : [],
    );
    const houseStyle = types.length >= 2 && types.every((t) => t.value !== t.type && t.value === t.value.toLowerCase());
    const isType = (offset: number) => types.some((t) => t.node.offset === offset);
    let said = false;
    for (const { error, node } of schemaErrorsOf(ctx, 'enum')) {
      const canonical = enumCasingMatch(node.value, (error.params as { allowedValues: unknown[] }).allowedValues);
      if (!canonical) continue;
      if (houseStyle && isType(node.offset)) {
        if (!said)
          ctx.report({
            node,
            messageId: 'houseStyle',
            data: { canonical, property: 'type', count: types.length, value: node.value as string },
          });
        said = true;
        continue;
      }
      ctx.report({ node, messageId: 'casing', data: { canonical, property: propertyNameOf(node) ?? 'value' } });
    }
  },
  fix: fixEnumCasing,
  // Only parameter types: other enum values need the schema to know their canonical casing.
  fixAll({ document, asked }) {
    const typeNodes = document.sets.flatMap((set) =>
      set.parameters.flatMap((p) =>
        p.typeNode?.type === 'string' && p.type && p.typeNode.value !== p.type ? [{ node: p.typeNode, type: p.type }] : [],
      ),
    );
    const isType = (d: { start: number; end: number }) =>
      typeNodes.some(({ node }) => node.offset === d.start && node.offset + node.length === d.end);
    if (typeNodes.length < 2 || !asked.some(isType)) return undefined;
    return {
      title: `Write every parameter type in its canonical casing (${typeNodes.length} in this document)`,
      edits: typeNodes.map(({ node, type }) => replaceNode(node, type)),
    };
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
  // The one hint of a set whose types are all lowercase speaks for every type: its fix writes them all.
  if (typeof ctx.data.count === 'number') {
    const types =
      setAt(ctx)?.set.parameters.flatMap((p) =>
        p.typeNode?.type === 'string' && p.type && p.typeNode.value !== p.type ? [replaceNode(p.typeNode, p.type)] : [],
      ) ?? [];
    if (types.length > 1)
      return [
        {
          key: `${ctx.start}`,
          title: `Write the set's ${types.length} parameter types in their canonical casing`,
          edits: types,
          preferred: true,
          safe: true,
        },
      ];
  }
  return [{ key: `${ctx.start}`, title: `Change to '${canonical}'`, edits: [replaceNode(node, canonical)], preferred: true, safe: true }];
}
