import { keyNodeOf, type Node } from '../json';
import type { SetRuleContext } from './types';
import type { SchemaError } from '../context';

/** Strict `#.#.#`: the A1 resource name and authored versions. */
export const STRICT_VERSION = /^\d+\.\d+\.\d+$/;
/** `#.#.#` with an optional suffix such as `-preview`, as built-in documents carry. */
export const SUFFIXED_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z][0-9A-Za-z.-]*)?$/;
/** `#.#.#`, `#.#.*` or `#.*.*`, with an optional suffix. */
export const DEFINITION_VERSION = /^\d+\.(\d+\.(\d+|\*)|\*\.\*)(-[0-9A-Za-z][0-9A-Za-z.-]*)?$/;

/** Values shown as written, such as `"Audit", true, 3`. */
export function listOf(values: string[], max = 5): string {
  const shown = values.slice(0, max);
  if (values.length > max) shown.push(`and ${values.length - max} more`);
  return shown.join(', ');
}

export function quoteList(values: string[], max = 5): string {
  return listOf(
    values.map((v) => `'${v}'`),
    max,
  );
}

/** How an object is known to a reader: by the key that holds it, or as `policyDefinitions[3]`. */
export function describeOwner(node: Node | undefined): string {
  if (!node?.parent) return 'the document';
  const key = keyNodeOf(node);
  if (key) return `'${String(key.value)}'`;
  if (node.parent.type === 'array') {
    const arrayKey = keyNodeOf(node.parent);
    return `'${arrayKey ? String(arrayKey.value) : 'item'}[${node.parent.children!.indexOf(node)}]'`;
  }
  return 'item';
}

/** The schema errors of one keyword, with the node each one is about. */
export function schemaErrorsOf(ctx: SetRuleContext, keyword: string): SchemaError[] {
  return ctx.schemaErrors(ctx.set).filter((e) => e.error.keyword === keyword);
}

/** The name of the property that holds a node, for messages. */
export function propertyNameOf(node: Node): string | undefined {
  const key = keyNodeOf(node);
  return key ? String(key.value) : undefined;
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return `a ${typeof value}`;
}
