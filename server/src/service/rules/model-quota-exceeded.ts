import { quotaOverruns, readPlan } from '../quota/plan';
import { formatNumber as fmt } from '../quota/capacity';
import type { DocumentRule } from './types';

export const modelQuotaExceeded: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS9103',
    name: 'model-quota-exceeded',
    description:
      "The plan's deployments of a model take more TPM than the region's free quota for that model and deployment type (spec Limits, rule 1), by the saved usage the plan or the settings name. Reported on the deployment that crosses the quota, with the others that draw on it as related information.",
    defaultSeverity: 'error',
    messages: {
      over: "'{{model}}' ({{sku}}) in '{{region}}': this deployment takes the plan to {{planned}} TPM, over the {{free}} TPM free ({{used}} used of the {{limit}} TPM quota). Lower a deployment of this model or request a quota increase.",
    },
  },
  check(ctx) {
    if (ctx.kind !== 'deploymentPlan') return;
    const plan = readPlan(ctx.parsed.root);
    const usages = [...plan.usages, ...(ctx.options.quota?.usages ?? [])];
    for (const o of quotaOverruns(plan, usages)) {
      const data = { model: o.model, sku: o.sku, region: o.region };
      ctx.report({
        node: o.deployment.capacityNode ?? o.deployment.node,
        messageId: 'over',
        data: { ...data, planned: fmt(o.plannedTpm), free: fmt(o.freeTpm), used: fmt(o.usedTpm), limit: fmt(o.limitTpm) },
        related: o.others.map((other) => ({
          node: other.capacityNode ?? other.node,
          message: `Also draws on the quota of '${o.model}' (${o.sku}) in '${o.region}': ${fmt((other.capacity ?? 0) * 1000)} TPM.`,
        })),
      });
    }
  },
};
