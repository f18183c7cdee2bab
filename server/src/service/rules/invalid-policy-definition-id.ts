import { SCOPE_PLACEHOLDER } from '../definitionIds';
import type { SetRule } from './types';

/** Tenant (built-in), management group or subscription scope (or a template engine's `${scope}` placeholder); `<Namespace>.Authorization`, any casing. */
const DEFINITION_ID = new RegExp(
  `^(/subscriptions/[^/]+|/providers/[A-Za-z0-9.]+\\.Management/managementGroups/[^/]+|${SCOPE_PLACEHOLDER})?/providers/[A-Za-z0-9]+(\\.[A-Za-z0-9]+)*\\.Authorization/(policyDefinitions|policySetDefinitions)/[^/]+$`,
  'i',
);

/** The shape of nearly every reference, a built-in definition at tenant level: tested first, without lowercasing a copy. */
const BUILT_IN_ID = /^\/providers\/microsoft\.authorization\/policydefinitions\/[^/]+$/i;

export function isPolicyDefinitionId(value: string): boolean {
  return BUILT_IN_ID.test(value) || DEFINITION_ID.test(value);
}

export const invalidPolicyDefinitionId: SetRule = {
  scope: 'set',
  meta: {
    code: 'PS4003',
    name: 'invalid-policy-definition-id',
    description:
      "`policyDefinitionId` must be the resource ID of a policy definition or policy set definition: '/providers/<Namespace>.Authorization/policyDefinitions/<name>', optionally under '/subscriptions/<id>' or '/providers/<Namespace>.Management/managementGroups/<id>'.",
    defaultSeverity: 'error',
    messages: {
      shape:
        "'{{value}}' is not a policy definition ID: expected '/providers/<Namespace>.Authorization/policyDefinitions/<name>' (optionally scoped to a subscription or management group).",
    },
  },
  check(ctx) {
    for (const reference of ctx.set.references) {
      const node = reference.idNode;
      if (!node || reference.idKey === undefined) continue;
      if (!isPolicyDefinitionId(node.value as string)) ctx.report({ node, messageId: 'shape', data: { value: node.value } });
    }
  },
};
