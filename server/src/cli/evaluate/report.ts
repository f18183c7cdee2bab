// The text report of an evaluation, every value from a file made safe for a terminal (JSON: the service's evaluationJson).
import { explainResult, type Resource, type ResourceResults, type TraceEntry } from '../../service';
import { untrusted } from '../formatters';

export type { ResourceResults };

export const describeResource = (resource: Resource): string =>
  `${String(resource.type ?? '(no type)')} '${String(resource.name ?? resource.id ?? '(no name)')}'`;

const show = (value: unknown): string => (value === undefined ? '(absent)' : JSON.stringify(value));

export function traceLine(t: TraceEntry): string {
  const outcome = t.result === 'unknown' ? `unknown: ${t.reason ?? ''}` : String(t.result);
  return `${t.path} is ${show(t.value)}; ${t.negated ? 'under not: ' : ''}${t.operator} ${show(t.expected)} -> ${outcome}`;
}

export function countOutcomes(all: ResourceResults[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { results } of all) for (const r of results) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
  return counts;
}

export function formatText(all: ResourceResults[]): string {
  const lines: string[] = [];
  for (const { resource, results } of all) {
    lines.push(untrusted(describeResource(resource)));
    for (const r of results) {
      const name = r.referenceId ?? r.definitionId;
      lines.push(
        `  ${r.outcome.padEnd(13)} ${untrusted(name)}  (${r.effect ?? 'effect unknown'}${r.enforced === false ? ', not enforced' : ''})`,
      );
      // The deciding step in words, then the reason when the sentence does not already give it.
      const sentence = explainResult(r);
      lines.push(`      ${untrusted(sentence)}`);
      if (r.reason && !sentence.includes(r.reason)) lines.push(`      ${untrusted(r.reason)}`);
      if (r.note) lines.push(`      ${untrusted(r.note)}`);
      for (const t of r.trace) lines.push(`      ${untrusted(traceLine(t))}`);
      for (const p of r.patch ?? [])
        lines.push(`      patch: ${untrusted(`${p.operation} ${p.field}${p.value !== undefined ? ` = ${JSON.stringify(p.value)}` : ''}`)}`);
    }
  }
  const counts = countOutcomes(all);
  lines.push(
    '',
    Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ') || 'nothing evaluated',
  );
  return lines.join('\n') + '\n';
}
