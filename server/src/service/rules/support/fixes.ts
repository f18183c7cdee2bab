import { findNodeAtOffset } from 'jsonc-parser';
import type { Node } from '../../json';
import type { SetModel } from '../../model/policySet';
import type { Fix, FixContext } from '../types';
import { replaceNode } from './edits';

/** What rules' fixes share to find what a diagnostic is about: by its range and data, never its message. Pure. */

export function sameRange(ctx: FixContext, node: Node): boolean {
  return node.offset === ctx.start && node.offset + node.length === ctx.end;
}

/** The node of this type exactly at the diagnostic's range. */
export function nodeAt(ctx: FixContext, type: Node['type']): Node | undefined {
  const node = findNodeAtOffset(ctx.document.parsed.root!, ctx.start);
  return node && node.type === type && sameRange(ctx, node) ? node : undefined;
}

/** The innermost set whose resource holds the diagnostic (a version resource can be nested in its set's). */
export function setAt(ctx: FixContext): { set: SetModel } | undefined {
  let best: SetModel | undefined;
  for (const set of ctx.document.sets) {
    const { offset, length } = set.resource;
    if (offset <= ctx.start && ctx.end <= offset + length && (!best || length < best.resource.length)) best = set;
  }
  return best && { set: best };
}

export function groupUseAt(ctx: FixContext) {
  const found = setAt(ctx);
  const use = found?.set.groupUses.find((u) => sameRange(ctx, u.node));
  return found && use ? { set: found.set, use } : undefined;
}

export function stringData(ctx: FixContext, key: string): string | undefined {
  const value = ctx.data[key];
  return typeof value === 'string' ? value : undefined;
}

export function indexOfKey(object: Node | undefined, key: string): number | undefined {
  const lower = key.toLowerCase();
  const index = object?.children?.findIndex((p) => String(p.children?.[0]?.value).toLowerCase() === lower) ?? -1;
  return index >= 0 ? index : undefined;
}

/**
 * Renames a property key: to another casing of itself, or (a typo) to the close match the rule suggests.
 * `safe`: whether the rename is applied without a person's choice (see Fix.safe).
 */
export function renameKey(
  target: (ctx: FixContext) => string | undefined,
  title: (to: string) => string,
  casingOnly = true,
  safe: (ctx: FixContext, from: string, to: string) => boolean = () => casingOnly,
): (ctx: FixContext) => Fix[] {
  return (ctx) => {
    const key = nodeAt(ctx, 'string');
    const to = target(ctx);
    const owner = key?.parent;
    if (!key || !to || owner?.type !== 'property' || owner.children?.[0] !== key) return [];
    const from = key.value as string;
    if (to === from || (casingOnly ? to.toLowerCase() !== from.toLowerCase() : stringData(ctx, 'name') !== from)) return [];
    // Never onto a key the object already has.
    if (owner.parent?.children?.some((p) => p.children?.[0]?.value === to)) return [];
    return [{ key: `${ctx.start}`, title: title(to), edits: [replaceNode(key, to)], preferred: true, safe: safe(ctx, from, to) }];
  };
}

/**
 * `<prefix><n>` for the first n from `first` that no reference of the set has as its ID (nor `alsoTaken`: the
 * IDs that fixes of other references, applied with this one, give them).
 */
export function freeReferenceId(set: SetModel, prefix: string, first: number, alsoTaken: Iterable<string> = []): string {
  const taken = new Set(set.references.map((r) => r.refIdLower).filter((id) => id !== undefined));
  for (const id of alsoTaken) taken.add(id.toLowerCase());
  let n = first;
  while (taken.has(`${prefix}${n}`.toLowerCase())) n++;
  return `${prefix}${n}`;
}
