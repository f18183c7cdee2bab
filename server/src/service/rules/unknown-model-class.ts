import { BUILT_IN_CAPACITY_TABLE, capacityClassOf } from '../quota/capacity';
import { readPlan } from '../quota/plan';
import type { DocumentRule } from './types';

export const unknownModelClass: DocumentRule = {
  scope: 'document',
  meta: {
    code: 'PS9102',
    name: 'unknown-model-class',
    description:
      'A deployed model has no known capacity-unit class, so the RPM its TPM buys is not known (the table can be extended: policySet.quota.capacityUnitsFile, --capacity-units).',
    defaultSeverity: 'info',
    messages: {
      unknown:
        "'{{model}}' has no known capacity-unit class: its RPM per 1,000 TPM is not known. Add it to a capacity-unit file (policySet.quota.capacityUnitsFile or --capacity-units).",
    },
  },
  check(ctx) {
    if (ctx.kind !== 'deploymentPlan') return;
    const table = ctx.options.quota?.table ?? BUILT_IN_CAPACITY_TABLE;
    for (const d of readPlan(ctx.parsed.root).deployments) {
      if (d.model && d.modelNode && !capacityClassOf(d.model, table))
        ctx.report({ node: d.modelNode, messageId: 'unknown', data: { model: d.model } });
    }
  },
};
