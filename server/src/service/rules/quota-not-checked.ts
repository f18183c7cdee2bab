import { readPlan, uncheckedDeployments } from '../quota/plan';
import type { DocumentRule } from './types';

export const quotaNotChecked: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS9105',
    name: 'quota-not-checked',
    description:
      "A plan entry's quota was not checked: the saved usage the plan, the settings or --usage give does not cover its subscription and region (or has no entry for its model and deployment type). Said on the entry, so that a plan is never passed as within quota when nothing was checked.",
    defaultSeverity: 'warning',
    messages: {
      notChecked:
        'The quota of \'{{model}}\' ({{sku}}) was not checked for this deployment: {{reason}}. Save the usage of its region (policyset quota usage --format json -o <file>) and name it in "usage".',
    },
  },
  check(ctx) {
    if (ctx.kind !== 'deploymentPlan') return;
    const plan = readPlan(ctx.parsed.root);
    // A lone E6 request body is not a plan: it names no region, and asking for one on every body would be noise.
    if (plan.lone) return;
    for (const u of uncheckedDeployments(plan, [...plan.usages, ...(ctx.options.quota?.usages ?? [])])) {
      ctx.report({
        node: u.deployment.capacityNode ?? u.deployment.node,
        messageId: 'notChecked',
        data: { model: u.deployment.model, sku: u.deployment.sku, reason: u.reason },
      });
    }
  },
};
