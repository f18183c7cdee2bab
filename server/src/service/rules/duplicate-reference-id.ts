import type { Node } from '../json';
import type { SetRule, Fix, FixContext } from './types';
import { replaceNode } from './support/edits';
import { freeReferenceId, sameRange, setAt } from './support/fixes';

export const duplicateReferenceId: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS4001',
    name: 'duplicate-reference-id',
    description: '`policyDefinitionReferenceId` must be unique within the set (compared case-insensitively, as the service does).',
    fixable: 'reference-id',
    defaultSeverity: 'error',
    messages: { duplicate: "policyDefinitionReferenceId '{{id}}' is used more than once: each reference needs its own." },
  },
  check(ctx) {
    const seen = new Map<string, Node>();
    for (const reference of ctx.set.references) {
      const node = reference.refIdNode;
      const key = reference.refIdLower;
      if (!node || key === undefined) continue;
      const first = seen.get(key);
      if (first)
        ctx.report({ node, messageId: 'duplicate', data: { id: node.value }, related: [{ node: first, message: 'First used here' }] });
      else seen.set(key, node);
    }
  },
  fix: uniqueReferenceId,
};

function uniqueReferenceId(ctx: FixContext): Fix[] {
  const found = setAt(ctx);
  const reference = found?.set.references.find((r) => r.refIdNode && r.refIdNode.type === 'string' && sameRange(ctx, r.refIdNode));
  if (!found || !reference?.refIdNode || found.set.isDynamic(reference.refIdNode)) return [];
  const base = reference.refIdNode.value as string;
  const lower = base.toLowerCase();
  if (found.set.references.filter((r) => r.refIdLower === lower).length < 2) return [];
  // The repeats after the first get IDs in the document's order, each its own (fixes applied together never collide).
  const given: string[] = [];
  let id = '';
  for (const repeat of found.set.references.filter((r) => r.refIdLower === lower).slice(1)) {
    id = freeReferenceId(found.set, `${base}_`, 2, given);
    given.push(id);
    if (repeat === reference) break;
  }
  if (!given.length || found.set.references.find((r) => r.refIdLower === lower) === reference) return [];
  return [{ key: `${ctx.start}`, title: `Change to '${id}'`, edits: [replaceNode(reference.refIdNode, id)], preferred: true, safe: true }];
}
