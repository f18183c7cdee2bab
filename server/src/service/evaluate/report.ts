// The JSON answer of an evaluation, one shape for `policyset evaluate --format json` and the language
// server's policySet/evaluate request: one entry per member and resource, the resource named in each.
import type { MemberResult } from './definition';
import type { Json, Resource } from './types';

export interface ResourceResults {
  resource: Resource;
  results: MemberResult[];
}

export function evaluationJson(all: ResourceResults[]): { results: Array<Record<string, Json | undefined | object>> } {
  return {
    results: all.flatMap(({ resource, results }) =>
      results.map((r) => ({
        resource: { ...(resource.id !== undefined ? { id: resource.id } : {}), type: resource.type ?? null, name: resource.name ?? null },
        referenceId: r.referenceId ?? null,
        definitionId: r.definitionId,
        effect: r.effect ?? null,
        outcome: r.outcome,
        ...(r.reason !== undefined ? { reason: r.reason } : {}),
        ...(r.enforced === false ? { enforced: false } : {}),
        ...(r.patch ? { patch: r.patch } : {}),
        ...(r.relatedResourcesFound !== undefined ? { relatedResourcesFound: r.relatedResourcesFound } : {}),
        ...(r.note ? { note: r.note } : {}),
        ...(r.awaitingAttestation ? { awaitingAttestation: true } : {}),
        trace: r.trace,
      })),
    ),
  };
}
