import type { Node } from '../json';
import type { SetRule, Fix, FixContext } from './types';
import type { ReferenceModel } from '../model/policySet';
import { keyNodeOf } from '../json';
import type { SetModel } from '../model/policySet';
import { insertInto } from './support/edits';
import { freeReferenceId, sameRange, setAt } from './support/fixes';

export const missingReferenceId: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS4002',
    name: 'missing-reference-id',
    description:
      'A definition referenced more than once needs a `policyDefinitionReferenceId` on each reference, or assignments, exemptions and overrides cannot tell the references apart.',
    fixable: 'reference-id',
    defaultSeverity: 'warning',
    messages: { missing: 'This definition is referenced {{count}} times: give each reference a policyDefinitionReferenceId.' },
  },
  check(ctx) {
    // Only a reference without an ID can be one too many.
    if (ctx.set.references.every((r) => r.refIdNode)) return;
    const byId = new Map<string, ReferenceModel[]>();
    for (const reference of ctx.set.references) {
      const key = reference.idKey;
      if (key === undefined) continue;
      const list = byId.get(key);
      if (list) list.push(reference);
      else byId.set(key, [reference]);
    }
    for (const list of byId.values()) {
      if (list.length < 2) continue;
      for (const reference of list) {
        if (reference.refIdNode) continue;
        const others = list
          .filter((r) => r !== reference)
          .slice(0, 20)
          .map((r) => ({ node: r.idNode as Node, message: 'Also referenced here' }));
        ctx.report({ node: reference.idNode, on: 'key', messageId: 'missing', data: { count: list.length }, related: others });
      }
    }
  },
  fix: addReferenceId,
};

function addReferenceId(ctx: FixContext): Fix[] {
  const found = setAt(ctx);
  const reference = found?.set.references.find((r) => {
    const key = r.idNode && keyNodeOf(r.idNode);
    return key && sameRange(ctx, key);
  });
  if (!found || !reference?.idNode || reference.refIdNode || reference.idKey === undefined) return [];
  const id = newReferenceIds(found.set).get(reference)!;
  const after = reference.node.children!.indexOf(reference.idNode.parent!) + 1;
  const insert = insertInto(ctx, reference.node, 'object', 'policyDefinitionReferenceId', id, after);
  return insert
    ? [{ key: `${ctx.start}`, title: `Add policyDefinitionReferenceId '${id}'`, edits: [insert], preferred: true, safe: true }]
    : [];
}

/**
 * The ID of each reference that has none: the definition's name (the last segment of its ID), made unique in
 * the set and among each other, in the document's order (so that fixes applied together never give two the same).
 */
function newReferenceIds(set: SetModel): Map<ReferenceModel, string> {
  const ids = new Map<ReferenceModel, string>();
  const taken = new Set(set.references.map((r) => r.refIdLower).filter((i) => i !== undefined));
  for (const reference of set.references) {
    if (reference.refIdNode || !reference.idNode || reference.idNode.type !== 'string') continue;
    const id = reference.idNode.value as string;
    const base = id.slice(id.lastIndexOf('/') + 1).replace(/[^\w.-]+/g, '_') || 'reference';
    const chosen = taken.has(base.toLowerCase()) ? freeReferenceId(set, `${base}_`, 2, taken) : base;
    taken.add(chosen.toLowerCase());
    ids.set(reference, chosen);
  }
  return ids;
}
