import { readPlan, resourceOverruns } from '../quota/plan';
import type { DocumentRule } from './types';

export const tooManyResourcesInRegion: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS9104',
    name: 'too-many-resources-in-region',
    description: 'A plan puts more model-service resources (accounts) in one subscription and region than allowed (30, spec Limits).',
    defaultSeverity: 'error',
    messages: {
      tooMany:
        "Account '{{account}}' is model-service resource {{count}} in '{{region}}': at most {{limit}} are allowed per subscription and region.",
    },
  },
  check(ctx) {
    if (ctx.kind !== 'deploymentPlan') return;
    const plan = readPlan(ctx.parsed.root);
    for (const o of resourceOverruns(plan, [...plan.usages, ...(ctx.options.quota?.usages ?? [])])) {
      ctx.report({
        node: o.deployment.accountNode ?? o.deployment.node,
        messageId: 'tooMany',
        data: { account: o.deployment.account, count: o.count, region: o.region, limit: o.limit },
      });
    }
  },
};
