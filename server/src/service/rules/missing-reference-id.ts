import type { Node } from '../json';
import type { SetRule } from './types';
import type { ReferenceModel } from '../model/policySet';

export const missingReferenceId: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS4002',
    name: 'missing-reference-id',
    description:
      'A definition referenced more than once needs a `policyDefinitionReferenceId` on each reference, or assignments, exemptions and overrides cannot tell the references apart.',
    defaultSeverity: 'warning',
    messages: { missing: "This definition is referenced {{count}} times: give each reference a policyDefinitionReferenceId." },
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
};
